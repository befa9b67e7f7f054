"""Move wording: `/game move` suggestions and the "Other move…" field."""
import pytest

from bot.domain import i18n
from bot.games import get_ruleset
from bot.present import moves
from bot.services import GameRecord, Seat
from tests.games.parcheesi.positions import classic_five, maghreb_three

MAGHREB, CLASSIC, PARCHEESI = (get_ruleset(g) for g in ("parchis-maghreb", "parcheesi-classic", "parcheesi"))


def record_of(ruleset, state, locale: str = "en") -> GameRecord:
    return GameRecord(id=1, guild_id=1, channel_id=1, game=ruleset.id, status="active", host_id=1, locale=locale,
                      options={}, seats=(Seat(1, "Ann"), Seat(2, "Bob")), seed="0", state=ruleset.to_json(state),
                      version=3)


def suggest(ruleset, state, typed: str, locale: str = "en") -> list[tuple[str, str]]:
    return moves.move_choices(record_of(ruleset, state), ruleset, state, typed, locale)


def parcheesi_rolled():
    state = PARCHEESI.new_game(2, {}, 0)
    return PARCHEESI.apply(state, "r5.5").state


def test_every_suggestion_names_the_move_by_its_code_then_its_wording():
    state = maghreb_three()
    assert suggest(MAGHREB, state, "") == [
        ("R1+3 · red 1: square 40 → square 43 (3)", "R1+3"), ("R2+3 · red 2: square 10 → square 13 (3)", "R2+3")]
    assert suggest(MAGHREB, state, "r2") == [("R2+3 · red 2: square 10 → square 13 (3)", "R2+3")]
    assert suggest(MAGHREB, state, "rouge 2", "fr")[0][0].startswith("R2+3 · rouge 2")


def test_games_without_cheating_suggest_their_legal_moves_alike():
    state = parcheesi_rolled()
    offered = suggest(PARCHEESI, state, "")
    assert [action for _, action in offered] == PARCHEESI.legal_actions(state)
    assert all(name == f"{action} · {moves.label(record_of(PARCHEESI, state), PARCHEESI, state, action)}"
               for name, action in offered)


@pytest.mark.parametrize("ruleset, state, typed, code, legal_code", [
    (MAGHREB, maghreb_three(), "r1+4", "R1+4", "R1+3"),      # MG-10.1, MG-10.2
    (CLASSIC, classic_five(), "B1+5", "B1+5", "out"),        # PC-9.1, PC-9.2: the skipped bring-out
])
def test_an_illegal_code_typed_is_suggested_first_and_reads_like_a_legal_one(ruleset, state, typed, code, legal_code):
    assert code not in ruleset.legal_actions(state) and code in ruleset.accepted_actions(state)
    record = record_of(ruleset, state)
    assert suggest(ruleset, state, typed)[0] == (f"{code} · {moves.label(record, ruleset, state, code)}", code)
    assert suggest(ruleset, state, legal_code)[0] == (
        f"{legal_code} · {moves.label(record, ruleset, state, legal_code)}", legal_code)
    assert code not in [a for _, a in suggest(ruleset, state, "")], "untyped, only the legal moves are listed"


def test_a_code_the_board_cannot_hold_is_not_suggested():
    assert suggest(MAGHREB, maghreb_three(), "R1+99") == []     # MG-10.1: beyond the exit


@pytest.mark.parametrize("ruleset, state, example, syntax", [
    (MAGHREB, maghreb_three(), "R1+3", "R2+4: red 2 moves 4 · out:G"),
    (CLASSIC, classic_five(), "out", "Y2+4: yellow 2 moves 4 squares · out"),
])
def test_the_other_move_field_shows_an_example_code_and_the_syntax(ruleset, state, example, syntax):
    label, placeholder = moves.other_move_field(record_of(ruleset, state), ruleset, state, "en")
    assert label == f"Move code, for example {example}" and placeholder.startswith(syntax)
    for locale in i18n.LOCALES:
        label, placeholder = moves.other_move_field(record_of(ruleset, state), ruleset, state, locale)
        assert example in label and len(label) <= 45 and len(placeholder) <= 100
