"""The Clue LLM agent assisted by the verifier (``llm-verified``).

Before it moves, the deductions the model states are checked against the player's exact
knowledge (the SAT-backed knowledge grid of ``formalize.clue``, fed from the observation): each
is ENTAILED, CONTRADICTED or UNDETERMINED. If any is not entailed, the verdicts go back to the
model once, in the same conversation, and the agent acts on the revised answer (checked again
for the record, not sent back again). Each check is kept in ``reviews``: the stated deductions
and their verdicts, the revised ones and theirs, and what the agent acted on; the game loop
(``play_game``) logs each one as a ``deduction_review`` event with the action it led to.

Accusations are checked the same way before they are made: on a normal turn an accusation whose
three cards the knowledge does not all place in the envelope is withheld (a wrong accusation
would put the player out), the agent makes the suggestion of the same answer instead, and the
review records the withheld accusation with the verdict on each card. Final accusations, which
the rules require, are made as the model gives them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from games.clue.agent import Accuse, ClueAction, ClueObservation, Phase, Suggest
from games.clue.events import CheckedDeduction as CheckedDeduction
from games.clue.events import Deduction
from games.clue.events import DeductionReview as DeductionReview
from games.clue.knowledge import PlayerView, deduction_fact, observation_setup
from games.clue.llm_agent import LLMClueAgent
from games.clue.llm_answers import DeductionAnswer, MoveAnswer, parse_deduction_answer
from games.clue.llm_prompts import revision_prompt
from games.clue.llm_schemas import deduction_answer_model
from games.core.llm_player import seat_client
from provers.sat_session import SatSession
from reasoning.claims import ClaimStatus
from reasoning.closing import Closing
from reasoning.constraints import ConstraintSessionFactory
from reasoning.llm import (
    ChatClient,
    ChatMessage,
    FallbackReason,
    LLMSettings,
    assistant,
    user,
)
from reasoning.llm.fallback import DEFAULT_MAX_REPROMPTS

REVISION_PHASE = "revision"

VERDICT_MEANING: dict[ClaimStatus, str] = {
    ClaimStatus.ENTAILED: "it follows from what you have observed",
    ClaimStatus.CONTRADICTED: "it cannot be true given what you have observed",
    ClaimStatus.UNDETERMINED: "what you have observed allows it but does not prove it",
    ClaimStatus.UNKNOWN: "it could not be checked",
}


class DeductionChecker(Protocol):
    """Judges stated deductions against what the deciding player knows."""

    def check(self, obs: ClueObservation, deductions: Sequence[Deduction]) -> list[ClaimStatus]:
        """One verdict per deduction, in order."""
        ...

    def close(self) -> None:
        """Release what the checker holds."""
        ...


class KnowledgeChecker:
    """Checks deductions against one seat's knowledge grid, kept up to date from its observations.

    ``factory`` picks the constraint backend (SAT by default). A new game or seat (seen from the
    observation) starts a fresh knowledge; ``close`` releases the constraint session.
    """

    def __init__(self, factory: ConstraintSessionFactory = SatSession) -> None:
        self._factory = factory
        self._view: PlayerView | None = None

    def check(self, obs: ClueObservation, deductions: Sequence[Deduction]) -> list[ClaimStatus]:
        """ENTAILED, CONTRADICTED or UNDETERMINED for each deduction, against ``obs``'s player."""
        view = self._view
        newest = obs.history[-1].seq if obs.history else -1
        if view is None or view.player != obs.player or newest < view.last_seq:
            self.close()
            view = PlayerView(observation_setup(obs), self._factory, obs.player, obs.hand)
            self._view = view
        view.catch_up(obs.history)
        grid = view.knowledge.grid()
        return [grid.status(deduction_fact(d)) for d in deductions]

    def close(self) -> None:
        """Release the constraint session of the current game."""
        if self._view is not None:
            self._view.close()
            self._view = None


def _checked(
    deductions: Sequence[Deduction], statuses: Sequence[ClaimStatus]
) -> tuple[CheckedDeduction, ...]:
    return tuple(
        CheckedDeduction(deduction=d, status=s) for d, s in zip(deductions, statuses, strict=True)
    )


class VerifiedLLMClueAgent(LLMClueAgent, Closing):
    """The LLM agent whose stated deductions are checked, and sent back once, before it acts."""

    def __init__(
        self,
        client: ChatClient,
        *,
        seed: int,
        name: str = "llm-verified",
        max_reprompts: int = DEFAULT_MAX_REPROMPTS,
        checker: DeductionChecker | None = None,
    ) -> None:
        super().__init__(client, seed=seed, name=name, max_reprompts=max_reprompts)
        self._checker: DeductionChecker = KnowledgeChecker() if checker is None else checker
        self._reviews: list[DeductionReview] = []

    @property
    def reviews(self) -> tuple[DeductionReview, ...]:
        """Every deduction phase's review so far, in order."""
        return tuple(self._reviews)

    def review_deductions(
        self,
        obs: ClueObservation,
        messages: Sequence[ChatMessage],
        reply: str,
        answer: DeductionAnswer,
    ) -> DeductionAnswer:
        """Check the stated deductions; send the verdicts back once if any is not entailed."""
        stated = _checked(answer.deductions, self._checker.check(obs, answer.deductions))

        def record(
            acted_on: tuple[Deduction, ...],
            revised: tuple[CheckedDeduction, ...] = (),
            failed: bool = False,
        ) -> None:
            sent_back = not all(c.status is ClaimStatus.ENTAILED for c in stated)
            self._reviews.append(
                DeductionReview(
                    seat=obs.player,
                    round=obs.round,
                    turn=obs.turn,
                    stated=stated,
                    sent_back=sent_back,
                    revised=revised,
                    revision_failed=failed,
                    acted_on=acted_on,
                )
            )

        if all(c.status is ClaimStatus.ENTAILED for c in stated):
            record(answer.deductions)
            return answer
        verdicts = [(c.deduction, c.status.value, VERDICT_MEANING[c.status]) for c in stated]
        conversation = [*messages, assistant(reply), user(revision_prompt(verdicts))]
        deck, n = obs.deck(), obs.n_players

        def parse(text: str) -> DeductionAnswer:
            return parse_deduction_answer(text, deck, n)

        outcome = self._ask_again(conversation, DeductionAnswer, parse, deduction_answer_model(obs))
        if outcome.value is None:
            self._record_fallback(REVISION_PHASE, FallbackReason.UNPARSED)
            kept = tuple(c.deduction for c in stated if c.status is ClaimStatus.ENTAILED)
            record(kept, failed=True)
            return DeductionAnswer(analysis=answer.analysis, deductions=kept)
        revised = outcome.value
        self._acted_on_latest_call()
        record(
            revised.deductions,
            _checked(revised.deductions, self._checker.check(obs, revised.deductions)),
        )
        return revised

    def review_move(self, obs: ClueObservation, answer: MoveAnswer) -> ClueAction | None:
        """The model's move, except that an accusation the knowledge does not entail is withheld
        on a normal turn for the answer's suggestion (None when it has none)."""
        action = answer.action()
        if not isinstance(action, Accuse) or obs.phase is Phase.FINAL_ACCUSATION:
            return action
        deck = obs.deck()
        claims = [
            Deduction(kind="in_envelope", card=deck.card(name)) for name in action.triple().names()
        ]
        checked = _checked(claims, self._checker.check(obs, claims))
        if all(c.status is ClaimStatus.ENTAILED for c in checked):
            return action
        self._withhold(obs, checked)
        t = answer.suggestion
        return None if t is None else Suggest(suspect=t.suspect, weapon=t.weapon, room=t.room)

    def _withhold(self, obs: ClueObservation, checked: tuple[CheckedDeduction, ...]) -> None:
        """Note the withheld accusation in this decision's review (made now if the deduction
        phase left none)."""
        last = self._reviews[-1] if self._reviews else None
        if last is not None and (last.seat, last.round, last.turn) == (
            obs.player,
            obs.round,
            obs.turn,
        ):
            fields = last.model_dump(exclude={"withheld"})
            self._reviews[-1] = DeductionReview.model_validate({**fields, "withheld": checked})
            return
        self._reviews.append(
            DeductionReview(
                seat=obs.player,
                round=obs.round,
                turn=obs.turn,
                stated=(),
                sent_back=False,
                acted_on=(),
                withheld=checked,
            )
        )

    def close(self) -> None:
        """Release what the checker holds (the constraint session of the current game)."""
        self._checker.close()


def make_verified_agent(
    settings: LLMSettings,
    seat: int,
    seed: int,
    *,
    name: str = "llm-verified",
    factory: ConstraintSessionFactory = SatSession,
) -> VerifiedLLMClueAgent:
    """A verifier-assisted LLM agent for ``seat`` with its own client (see ``seat_client``),
    checking with a knowledge built on ``factory``'s constraint sessions."""
    client = seat_client(settings, seat)
    return VerifiedLLMClueAgent(client, seed=seed, name=name, checker=KnowledgeChecker(factory))
