"""Prompts of the Undercover-V LLM agents and of the neuro-symbolic pipeline.

They follow the structure of seed 002, Section 3.1 and Appendix H (the game rules as the system
prompt; a state block; numbered reasoning steps; a fixed answer format), in this project's own
words. Every answer is a set of labelled lines (``ROLE: citizen``), read with
``reasoning.llm.labelled_fields``. The state block gives the descriptions of the last
``RECENT_ROUNDS`` rounds in full; earlier rounds go in separate messages a context budget may
drop (``conversation``).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.undercover.agent import Observation, RoundVote, SpokenDescription
from reasoning.llm import ChatMessage, history, system, user

RECENT_ROUNDS = 2
"""Rounds of descriptions given in full in every prompt; earlier ones come as trimmable messages."""

REASONING = "REASONING"
ROLE = "ROLE"
DESCRIPTION = "DESCRIPTION"
VOTE = "VOTE"
GUESS = "GUESS"
DECISION = "DECISION"
RULES = "RULES"

GAME_RULES = """\
You are playing Undercover, a word game of hidden roles.

The rules:
1. Every player gets a secret word card. All players but one hold the same word; they are the \
citizens. One player, the spy, holds a different but related word. Nobody is told their role: \
you only see your own word.
2. Each round, every player still in the game describes their own word in one sentence, one \
after the other. A description must be true of the speaker's word, and must not repeat a \
description anyone has already given. Never say the word itself.
3. After the descriptions, everybody votes at the same time for the player they think is the \
spy. Nobody may abstain or vote for themselves. The player with the most votes leaves the game; \
a tie removes nobody.
4. The citizens win as soon as the spy is voted out. The spy wins when only two players are \
left, or after three tied votes in a row.

A citizen wants to find the spy without giving the word away to them. The spy wants to work out \
the citizens' word from their descriptions and blend in, without ever saying something false \
about their own word."""

NLI_DESCRIBE_TASK = f"""\
Describe your word card in one sentence that is true of it. Do not name the word, and do not \
repeat a description that has already been given.

Answer in exactly this format:
{DESCRIPTION}: <one sentence about your word that starts with "It", such as "It is ...">"""

NLI_VOTE_TASK = f"""\
Everybody has described their word for this round. Vote for the player you think is the spy.

Answer in exactly this format:
{VOTE}: player <number>"""

ATT_DESCRIBE_TASK = f"""\
Reason in two stages before you describe your word card.
Stage 1, intentions: for each other player, judge from their descriptions whether they hold \
your word (a citizen) or a different word (the spy). Then judge yourself: if most of the others' \
descriptions fit your word, you are a citizen; if most of them do not, you are probably the spy.
Stage 2, conclusion: as a citizen, give a true feature of your word that nobody has mentioned \
yet, without making the word easy to guess. As the spy, give a feature that is true of your \
word and also fits what the others seem to hold, so that you blend in; if you believe you are \
the spy, say in your reasoning what the others' word probably is. Never say anything false \
about your word, never name it, never repeat a description.

Answer in exactly this format:
{REASONING}: <stage 1 in a few sentences>
{ROLE}: citizen or spy
{DESCRIPTION}: <one sentence about your word that starts with "It", such as "It is ...">"""

ATT_VOTE_TASK = f"""\
Everybody has described their word for this round. Reason in two stages before you vote.
Stage 1, intentions: for each other player, judge from all their descriptions whether they hold \
your word. Then judge yourself: if most of the others' descriptions fit your word, you are a \
citizen; otherwise you are probably the spy.
Stage 2, conclusion: as a citizen, vote for the player whose descriptions fit your word least. \
As the spy, vote for one of the citizens.

Answer in exactly this format:
{REASONING}: <stage 1 in a few sentences>
{ROLE}: citizen or spy
{VOTE}: player <number>"""

PROVER_NOTE = """\
A theorem prover has checked, for every other player, whether their descriptions (the facts), \
together with general rules linking facts to words, logically entail your word card. "valid" \
means they entail your word; "invalid" means they do not (a counter-example or no proof); \
"syntax error" means the check could not be carried out. Use the prover's verdicts as \
supporting evidence next to your own reading of the descriptions."""

NS_DESCRIBE_TASK = f"""\
{PROVER_NOTE}

Reason in two stages before you describe your word card.
Stage 1, intentions: for each other player, judge whether their descriptions fit your word, \
first by their meaning and then by the prover's verdict. Use your guess of the other word too: \
a player whose descriptions fit the guess better than your word probably holds the other word. \
Then judge yourself: if most of the others fit your word, you are a citizen; otherwise you are \
probably the spy.
Stage 2, conclusion: as a citizen, give a true feature of your word that nobody has mentioned \
yet. As the spy, give a feature that is true of your word and also fits the others' word, so \
that you blend in. Never say anything false about your word, never name it, never repeat a \
description.

Answer in exactly this format:
{REASONING}: <stage 1 in a few sentences>
{ROLE}: citizen or spy
{DESCRIPTION}: <one sentence about your word that starts with "It", such as "It is ...">"""

NS_VOTE_TASK = f"""\
Everybody has described their word for this round.
{PROVER_NOTE}

Reason in stages before you vote.
Step 1: read the descriptions, the facts and rules, and the prover's verdicts.
Step 2: do most of the others' descriptions fit your word by their meaning?
Step 3: do most of them entail your word according to the prover?
Step 4: weigh both. As a citizen, vote for the player whose descriptions fit your word least, \
by meaning and by proof. As the spy, vote for one of the citizens.

Answer in exactly this format:
{REASONING}: <steps 1-3 in a few sentences>
{ROLE}: citizen or spy
{VOTE}: player <number>"""

GUESS_TASK = f"""\
Guess the word on the other side: if you are a citizen, the spy's word; if you are the spy, the \
citizens' word. It differs from your own word but is closely related to it. Judge from the \
descriptions so far, if there are any.

Answer in exactly this format:
{GUESS}: <the word>"""

RULES_SYSTEM = f"""\
You write general rules that explain how facts bear on a word. You are given facts (sentences a \
player said about a secret word) and candidate words. Write rules in plain English that a logician \
could use to decide, step by step, whether the facts point to each candidate word or away from \
it.
- Each rule is one general sentence, for example "If something is flavoured with oil of \
bergamot, it is Earl Grey tea." or "Whatever is grown in Sri Lanka is not Earl Grey tea."
- Use the wording of the facts, so that each rule visibly connects to them.
- Name the candidate words exactly as given.
- Write only rules that are true of the world.

Answer in exactly this format:
{RULES}:
- <rule>
- <rule>"""

REFINE_SYSTEM = """\
You repair theories written in a first-order logic syntax. A theory has one statement a line:
  axiom NAME: FORMULA
  goal: FORMULA
Lines starting with # are comments. Formulas use forall x y. ..., exists e. ..., & (and), \
| (or), ~ (not), -> (implies), <-> (if and only if), = (equality) and predicates applied to \
arguments in parentheses, such as Agent(e, x). Every name other than item must be bound by a \
quantifier; a role such as Agent or Patient takes an event first.

Return the whole corrected theory in one fenced code block. Keep every axiom name and the \
meaning of every axiom, keep the goal unchanged, and change only what the error requires."""

UPDATE_GUESS_TASK = f"""\
Player {{seat}} was voted out last round, and the game goes on, so player {{seat}} was not the \
spy. That happens in one of two ways: you are a citizen and the others voted out a fellow \
citizen, or you are the spy yourself.
Your current guess of the other word is "{{guess}}". A theorem prover tested whether player \
{{seat}}'s descriptions, with the rules below, entail your guess. They do not.

The theory that was tested:
{{theory}}

What the prover reported:
{{trace}}

Reason in steps:
Step 1: compare player {{seat}}'s descriptions, the others' descriptions and your word card.
Step 2: decide whether you are the spy. If you are, player {{seat}} held the citizens' word, \
so a guess their descriptions do not entail is probably wrong: update it. If you are a citizen, \
keep the guess unless the prover's report shows it is clearly wrong.
Step 3: keep or update the guess.

Answer in exactly this format:
{REASONING}: <steps 1-2 in a few sentences>
{ROLE}: citizen or spy
{DECISION}: keep or update
{GUESS}: <the guessed word, new or kept>"""


def player(seat: int) -> str:
    """How prompts name a seat."""
    return f"player {seat}"


def _quote(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _descriptions(spoken: Sequence[SpokenDescription]) -> str:
    return "; ".join(f"round {d.round}: {_quote(d.text)}" for d in spoken)


def _players(seats: Sequence[int]) -> str:
    return ", ".join(player(s) for s in seats) if seats else "none"


def _vote_outcome(vote: RoundVote) -> str:
    ballots = ", ".join(f"{player(b.voter)} for {player(b.target)}" for b in vote.ballots)
    if vote.eliminated is not None:
        outcome = f"Player {vote.eliminated} was voted out."
    else:
        outcome = "The vote was tied, so nobody left."
    return f"{ballots}. {outcome}"


def vote_summary(obs: Observation) -> str:
    """The last finished vote in one or two sentences, or that there was none yet."""
    if not obs.votes:
        return "No vote has taken place yet."
    last = obs.votes[-1]
    return f"Last vote (round {last.round}): {_vote_outcome(last)}"


def _recent(obs: Observation, seat: int) -> tuple[SpokenDescription, ...]:
    """The descriptions ``seat`` gave in the last ``RECENT_ROUNDS`` rounds."""
    return tuple(d for d in obs.descriptions_by(seat) if d.round > obs.round - RECENT_ROUNDS)


def game_state(obs: Observation) -> str:
    """The state block every prompt opens with: round, seat, word, players, votes, and the
    descriptions of the last ``RECENT_ROUNDS`` rounds (the player's own in full)."""
    others = [s for s in obs.living if s != obs.seat]
    eliminated_rounds = {v.eliminated: v.round for v in obs.votes if v.eliminated is not None}
    gone = ", ".join(
        f"{player(s)} (round {eliminated_rounds[s]})" if s in eliminated_rounds else player(s)
        for s in obs.eliminated
    )
    lines = [
        f"Round {obs.round}. You are {player(obs.seat)}. Your word card is {_quote(obs.word)}.",
        f"Players still in the game: {_players(obs.living)}.",
        f"Players voted out: {gone or 'none'}.",
        vote_summary(obs),
        f"Tied votes in a row so far: {obs.consecutive_ties}.",
    ]
    if obs.votes:
        lines.append("The game goes on: the spy has not been voted out.")
    if obs.round > RECENT_ROUNDS:
        lines.append(
            f"Descriptions of the last {RECENT_ROUNDS} rounds follow; earlier rounds are above."
        )
    lines.append("Descriptions by the other players still in the game:")
    spoken = [s for s in others if _recent(obs, s)]
    lines += [f"- {player(s)}: {_descriptions(_recent(obs, s))}" for s in spoken]
    if not spoken:
        lines.append("- none yet")
    if obs.eliminated:
        lines.append("Descriptions by players voted out:")
        lines += [
            f"- {player(s)}: {_descriptions(_recent(obs, s)) or 'none'}" for s in obs.eliminated
        ]
    own = obs.descriptions_by(obs.seat)
    lines.append(f"Your own descriptions: {_descriptions(own) if own else 'none yet'}.")
    return "\n".join(lines)


def history_messages(obs: Observation) -> list[ChatMessage]:
    """The rounds before the last ``RECENT_ROUNDS``, one message per round with its descriptions
    and vote, each marked trimmable: a context budget drops the oldest first."""
    votes = {v.round: v for v in obs.votes}
    messages = []
    for r in range(1, obs.round - RECENT_ROUNDS + 1):
        lines = [f"Earlier game history, round {r}:"]
        lines += [f"- {player(d.seat)} said {_quote(d.text)}" for d in obs.descriptions_in(r)]
        if r in votes:
            lines.append(f"- the vote: {_vote_outcome(votes[r])}")
        messages.append(history("\n".join(lines)))
    return messages


def conversation(obs: Observation, request: str) -> list[ChatMessage]:
    """The rules, the trimmable earlier rounds, then the request (which opens with the state)."""
    return [system(GAME_RULES), *history_messages(obs), user(request)]


def vote_choices(obs: Observation) -> str:
    """The line listing whom the player may vote for."""
    return f"You may vote for: {_players(obs.vote_targets())}. You cannot vote for yourself."


def describe_prompt(obs: Observation, task: str, extra: str = "") -> str:
    """A description request: the state, any extra block (guess, prover record), the task."""
    parts = [game_state(obs), extra, task]
    return "\n\n".join(p for p in parts if p)


def vote_prompt(obs: Observation, task: str, extra: str = "") -> str:
    """A vote request: the state, any extra block, the allowed targets and the task."""
    parts = [game_state(obs), extra, vote_choices(obs), task]
    return "\n\n".join(p for p in parts if p)


def guess_block(guess: str | None) -> str:
    """The line stating the current guess of the other word."""
    if guess is None:
        return "You have no guess of the other word yet."
    return f"Your guess of the other word: {_quote(guess)}."


def guess_prompt(obs: Observation) -> str:
    """The request for a first guess of the other side's word."""
    return f"{game_state(obs)}\n\n{GUESS_TASK}"


def rules_request(facts: Sequence[str], candidates: Sequence[str]) -> str:
    """The knowledge-base request: the facts of one player and the candidate words."""
    fact_lines = "\n".join(f"- {f}" for f in facts)
    words = ", ".join(_quote(c) for c in candidates)
    return (
        f"Facts:\n{fact_lines}\n\nCandidate words: {words}\n\n"
        "Write up to four rules linking these facts to the candidate words, for or against each."
    )


def refine_request(theory: str, error: str) -> str:
    """The syntax-refinement request (seed 002, Algorithm 1): the theory and the error found."""
    return f"The theory below was rejected.\n\nError:\n{error}\n\nTheory:\n```\n{theory}\n```"


def update_guess_prompt(obs: Observation, seat: int, guess: str, theory: str, trace: str) -> str:
    """The guess-refinement request (seed 002, eq. 12-13) after ``seat`` was voted out."""
    task = UPDATE_GUESS_TASK.format(seat=seat, guess=guess, theory=theory, trace=trace)
    return f"{game_state(obs)}\n\n{task}"


SKETCH_SYSTEM = """\
You write proof sketches for Isabelle/HOL. Given a theory whose theorem is to be proved, write \
the intermediate steps a proof would go through, in Isar: one step a line, such as
  have "p_Tea c_item"
  then have "\\<exists>e. p_Brew e"
  then show ?thesis
and put <ATP> after each step, where an automatic prover is to fill in the proof. Use only the \
constants, predicates and axiom names of the theory, written exactly as there.

Answer with the steps in one fenced code block."""


def sketch_request(theory: str) -> str:
    """The proof-sketch request (seed 002, Fig. 8) for an Isabelle theory."""
    return f"Write a proof sketch for the theorem of this theory:\n\n```\n{theory}```"
