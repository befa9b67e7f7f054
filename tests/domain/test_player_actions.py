"""Who may act now (check_to_move): one check for a move, a roll and a piece's moves, in the services and the
Discord layer alike."""
from dataclasses import replace

import pytest

from bot.core.game_records import GameRecord, Seat
from bot.domain import i18n
from bot.domain.player_actions import check_to_move
from bot.games.base import GameError

ANN_AND_BOB = GameRecord(id=1, guild_id=1, channel_id=1, game="pariti", status="active", host_id=1, locale="en",
                         options={}, seats=(Seat(1, "Ann"), Seat(2, "Bob")), seed="00", state=None, version=3)


def refusal(record, seat, to_move):
    with pytest.raises(GameError) as refused:
        check_to_move(record, seat, to_move)
    return refused.value.message


def test_the_player_to_move_may_act_and_the_others_are_told_who_must():
    assert check_to_move(ANN_AND_BOB, 0, 0) == 0
    not_yours = refusal(ANN_AND_BOB, 1, 0)
    assert not_yours.key == "error.not_your_turn" and not_yours.params == {"player": "Ann"}


def test_a_watcher_is_told_they_are_not_playing_whoever_is_to_move():
    assert refusal(ANN_AND_BOB, None, 0).key == refusal(ANN_AND_BOB, None, None).key == "error.not_a_player"


def test_a_person_told_to_wait_for_a_computer_reads_its_level_in_their_language():
    """A move typed in a computer's turn: the computer is named as the board names it, not "🤖"."""
    ann_and_computer = replace(ANN_AND_BOB, seats=(Seat(1, "Ann"), Seat(0, "", level="hard")))
    not_yours = refusal(ann_and_computer, 0, 1)
    assert i18n.render(not_yours, "en") == "It is not your turn: Computer (hard) must play."
    assert i18n.render(not_yours, "fr") == "Ce n’est pas votre tour\xa0: c’est à l’ordinateur (difficile) de jouer."
    assert i18n.render(not_yours, "es") == "No es tu turno: le toca a la máquina (difícil)."
    assert i18n.render(not_yours, "de") == "Du bist nicht dran. Am Zug ist der Computer (schwer)."
    assert i18n.render(not_yours, "pt-BR") == "Não é a sua vez: quem joga é o computador (difícil)."


def test_a_person_who_asked_to_be_forgotten_is_named_in_our_words_not_left_blank():
    forgotten = replace(ANN_AND_BOB, seats=(Seat(1, "Ann"), Seat(-7, "")))
    assert i18n.render(refusal(forgotten, 0, 1), "en") == "It is not your turn: former player must play."
