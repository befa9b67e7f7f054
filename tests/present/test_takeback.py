"""The words and controls of take-backs and rematches: Undo on the board of a game in play when a move
may be taken back, the request put to the player to move and its answer, Rematch on the final board."""
from bot.domain.positions import ruleset_of
from bot.present.board import board_post
from bot.present.takeback import answered_text, request_post
from bot.services import Seat

ANN, BOB = Seat(1, "Ann"), Seat(2, "Bob", locale="fr")


async def pariti_after_anns_move(sessions):
    await sessions.lobby.create(channel_id=1, guild_id=1, host=ANN, game="pariti", options={"seating": "lobby"})
    await sessions.lobby.join(1, BOB)
    record = (await sessions.lobby.start(1, ANN.user_id)).record
    ruleset = ruleset_of(record)
    return (await sessions.play.act(1, ANN.user_id, ruleset.legal_actions(ruleset.from_json(record.state))[0])).record


async def test_the_board_offers_undo_only_when_a_move_may_be_taken_back(sessions):
    record = await pariti_after_anns_move(sessions)
    annotations = await sessions.annotations.of(record, 0.0)
    kinds = [c.kind for c in board_post(record, takeback_seat=annotations.takeback_seat).controls]
    assert kinds.count("undo") == 1
    assert "undo" not in [c.kind for c in board_post(record).controls]


async def test_the_request_pings_the_player_to_move_and_becomes_their_answer(sessions):
    record = await pariti_after_anns_move(sessions)
    request = await sessions.takebacks.undo(1, ANN.user_id)
    post = request_post(request)
    assert post.mention == BOB.user_id and f"<@{BOB.user_id}>" in post.content
    assert "Ann asks to take back their last move" in post.content
    assert [(c.kind, c.value, c.label) for c in post.controls] == [("takeback", "yes", "Accept"),
                                                                   ("takeback", "no", "Refuse")]
    refused = await sessions.takebacks.answer(1, BOB.user_id, record.id, record.version, False)
    text = answered_text(refused)
    assert text.startswith("↩️ Ann asks") and text.endswith("Bob refuses: Ann's move stands.")
    assert "<@" not in text


async def test_the_final_board_offers_a_rematch_and_nothing_else(sessions):
    record = await pariti_after_anns_move(sessions)
    ended = (await sessions.endings.end(1, ANN.user_id, can_manage=False)).record
    assert [(c.kind, c.label) for c in board_post(ended).controls] == [("rematch", "🔁 Rematch")]
    assert board_post(ended, with_controls=False).controls == ()
    assert record.status == "active"
