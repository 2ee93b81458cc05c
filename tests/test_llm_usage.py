"""Metering: latency percentiles, counts per seat and per run, and costs from the price table."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from reasoning.llm import (
    ChatReply,
    FallbackCounter,
    LLMSettings,
    ModelPrice,
    PriceTable,
    UsageMeter,
    UsageReport,
    choose_with_fallback,
    combined,
)


def reply(latency_s: float, model: str = "gpt-4o-mini", finish: str = "stop") -> ChatReply:
    return ChatReply(
        content="x",
        model=model,
        prompt_tokens=1000,
        completion_tokens=100,
        latency_s=latency_s,
        finish_reason=finish,
    )


def test_latency_median_and_p95_and_counts() -> None:
    meter = UsageMeter()
    for latency in [0.1 * i for i in range(1, 21)]:  # 0.1 .. 2.0 s
        meter.record_reply(reply(latency))
    meter.record_reply(reply(5.0, finish="length"))
    meter.record_retry()
    meter.record_reprompt()
    meter.record_trimmed(3)
    usage = meter.snapshot()
    assert usage.calls == 21 and usage.cut_off == 1
    assert usage.latency_median_s == pytest.approx(1.1)
    assert usage.latency_p95_s == pytest.approx(2.0)
    assert (usage.retries, usage.reprompts, usage.trimmed) == (1, 1, 3)
    empty = UsageMeter().snapshot()
    assert (empty.latency_median_s, empty.latency_p95_s, empty.cost) == (0.0, 0.0, None)


def test_cost_comes_from_the_table_by_model_prefix_or_from_explicit_prices() -> None:
    meter = UsageMeter()
    meter.record_reply(reply(0.1, model="gpt-4o-mini-2024-07-18"))
    assert meter.snapshot().cost == pytest.approx(1000 * 0.00015 / 1000 + 100 * 0.0006 / 1000)
    meter.record_reply(reply(0.1, model="local-model"))
    assert meter.snapshot().cost is None  # one call has no price: no partial total
    explicit = UsageMeter(1.0, 2.0)
    explicit.record_reply(reply(0.1, model="local-model"))
    assert explicit.snapshot().cost == pytest.approx(1.0 + 0.2)


def test_a_price_file_extends_the_table_and_bad_files_name_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({"SmolLM2-135M": {}, "gpt-4o": {"input_per_1k": 1.0}}))
    settings = LLMSettings(model="x", price_table=path)
    table = UsageMeter.for_settings(settings).prices
    assert table.price("SmolLM2-135M-Instruct") == ModelPrice()
    assert table.price("gpt-4o") == ModelPrice(input_per_1k=1.0)
    assert table.price("gpt-4o-mini") == PriceTable().price("gpt-4o-mini")
    assert table.price("llama") is None
    path.write_text(json.dumps({"m": {"input_per_1k": -1}}))
    with pytest.raises(ValueError, match=r"prices.json: m.input_per_1k"):
        PriceTable.load(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match=r"prices.json:1:2: not valid JSON"):
        PriceTable.load(path)


def test_report_per_seat_and_run_with_fallbacks() -> None:
    seats = {"P0": UsageMeter(), "P1": UsageMeter()}
    seats["P0"].record_reply(reply(1.0))
    seats["P1"].record_reply(reply(3.0))
    seats["P1"].record_reply(reply(2.0))
    counter = FallbackCounter()
    choose_with_fallback(None, [1, 2], random.Random(0), counter=counter, meter=seats["P1"])
    report = UsageReport.from_meters(seats)
    assert report.total == combined(seats.values())
    assert report.total.calls == 3 and report.total.fallbacks == 1
    assert report.total.latency_median_s == 2.0 and report.seats["P0"].latency_p95_s == 1.0
    assert report.total.cost == pytest.approx(3 * (0.15 + 0.06) / 1000)
    lines = report.table().splitlines()
    assert lines[0].split()[:3] == ["seat", "calls", "prompt"]
    assert [line.split()[0] for line in lines[1:]] == ["P0", "P1", "total"]
    assert lines[-1].split()[1] == "3"
    assert UsageReport.model_validate_json(report.model_dump_json()) == report
