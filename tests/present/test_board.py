"""The board's first line and controls: a computer's turn shown before it plays (the database stopped the
computers mid-way) pings nobody and offers no moves, which nobody could play."""
from dataclasses import replace

from bot.domain.positions import ruleset_of
from bot.present.board import board_post
from bot.services import Seat

ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob")


async def game_after_anns_move(sessions, game: str):
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game=game, options={"seating": "lobby"})
    await sessions.lobby.join(1, BOB)
    record = (await sessions.lobby.start(1, ANN.user_id)).record
    ruleset = ruleset_of(record)
    return (await sessions.play.act(1, ANN.user_id, ruleset.legal_actions(ruleset.from_json(record.state))[0])).record


async def test_a_computers_turn_not_yet_played_offers_no_moves_and_pings_nobody(sessions):
    record = await game_after_anns_move(sessions, "pariti")
    assert board_post(record).controls   # Bob's pieces to move
    computer = replace(record, seats=(record.seats[0], Seat(0, "", level="hard")))
    post = board_post(computer)
    assert post.mention is None and post.controls == ()
    assert post.content.splitlines()[0] == "🤖 Computer (hard) plays next (blue + pink)."
