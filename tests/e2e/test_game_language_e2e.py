"""The game's language: shared messages (lobby, boards, announcements) in the server's preferred
language unless `/game new language:` chose another; replies one user sees in that user's language."""

import pytest

from bot.domain import i18n
from bot.present.codes import shown
from tests.e2e.table import Game, told

pytestmark = pytest.mark.e2e


def labels(message):
    return [b.get("label") for b in message.buttons]


@pytest.mark.fake_discord(guild_locale="fr")
async def test_shared_messages_follow_the_server_replies_the_user_and_codes_the_game(fake_discord, bot_process):
    ana, bruno = fake_discord.add_user("ana", locale="en-US"), fake_discord.add_user("bruno", locale="en-GB")
    channel = fake_discord.add_channel("partie")
    await fake_discord.slash(ana, channel, "game new", game="pariti")
    lobby = fake_discord.last_message(channel, lambda m: m.buttons)
    assert i18n.text("lobby.button.join", "fr") in labels(lobby), "a French server's lobby is in French"
    assert not (await fake_discord.click(bruno, lobby, label=i18n.text("lobby.button.join", "fr"))).followups
    refused = await fake_discord.click(bruno, lobby, label=i18n.text("lobby.button.start", "fr"))
    assert [m.content for m in told(refused)] == [i18n.text("error.host_only", "en")], \
        "what only bruno sees is in bruno's language"
    assert not told(await fake_discord.click(ana, lobby, label=i18n.text("lobby.button.start", "fr")))
    board = fake_discord.last_message(channel, lambda m: m.files)
    assert board.content.startswith("👉 <@") and ", à vous (bleu + rose)\u00a0: choisissez votre coup." in board.content

    # Move codes in the game's language: a pink piece is R (rose); typed so, it is stored as P.
    game = Game(bot_process.database, "pariti", fake_discord)
    player = game.user(game.ruleset.to_move(game.state()))
    pink = next(a for a in game.ruleset.legal_actions(game.state()) if a.startswith("P"))
    french = shown(game.ruleset, pink, "fr")
    assert french.startswith("R")
    offered = await fake_discord.autocomplete(player, channel, "game move", "move", typed=french.lower())
    assert offered[0]["value"] == pink and offered[0]["name"].startswith(f"{french} · "), offered
    await fake_discord.slash(player, channel, "game move", move=french)
    assert game.log()[-1][1:] == (pink, True)


@pytest.mark.fake_discord(guild_locale="fr")
async def test_the_host_may_choose_the_game_s_language(fake_discord, bot_process):
    ana = fake_discord.add_user("ana", locale="fr")
    channel = fake_discord.add_channel("game")
    await fake_discord.slash(ana, channel, "game new", game="pariti", language="en")
    lobby = fake_discord.last_message(channel, lambda m: m.buttons)
    assert "Join" in labels(lobby) and "a new game is looking for players" in lobby.content


@pytest.mark.fake_discord(guild_locale="fr")
async def test_french_boards_read_computers_and_names_aloud(fake_discord, bot_process):
    """"de Yasmine", "de l’ordinateur (normal)", one pair of brackets, a computer's name kept after a resignation."""
    yasmine, bruno = fake_discord.add_user("Yasmine", locale="fr"), fake_discord.add_user("Bruno", locale="fr")
    channel = fake_discord.add_channel("partie")
    await fake_discord.slash(bruno, channel, "game new", game="parcheesi", seating="lobby")
    await fake_discord.slash(bruno, channel, "game add-bot", level="normal")
    lobby = fake_discord.last_message(channel, lambda m: m.buttons)
    await fake_discord.click(yasmine, lobby, label=i18n.text("lobby.button.join", "fr"))
    await fake_discord.click(bruno, lobby, label=i18n.text("lobby.button.start", "fr"))
    first = fake_discord.last_message(channel, lambda m: m.files)
    assert "Bruno (jaune), l’ordinateur (normal, " in first.content and ") (" not in first.content
    await fake_discord.slash(bruno, channel, "game resign")   # a second normal computer takes Bruno's seat
    await fake_discord.wait_for_message(channel, lambda m: m.files and yasmine.id in m.pings, timeout=30)
    said = "\n".join(m.content for m in fake_discord.messages(channel, deleted=True))
    assert f"<@{yasmine.id}>, à vous (" in said and "d’Yasmine" not in said   # the turn said once, by the call
    assert "L’ordinateur (normal) lance " in said
    assert "L’ordinateur 2 (normal) lance " in said and "(normal) (" not in said, said
    status = await fake_discord.slash(yasmine, channel, "game status")
    assert "L’ordinateur (normal, bleu)\u00a0: " in status.content and ") (" not in status.content
