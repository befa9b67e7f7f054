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
    board = await fake_discord.wait_for_message(channel, lambda m: m.files)
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
    first = await fake_discord.wait_for_message(channel, lambda m: m.files)
    assert "Bruno (jaune), l’ordinateur (normal, " in first.content and ") (" not in first.content
    await fake_discord.slash(bruno, channel, "game resign")   # a second normal computer takes Bruno's seat
    await fake_discord.wait_for_message(channel, lambda m: m.files and yasmine.id in m.pings, timeout=30)
    said = "\n".join(m.content for m in fake_discord.messages(channel, deleted=True))
    assert f"<@{yasmine.id}>, à vous (" in said and "d’Yasmine" not in said   # the turn said once, by the call
    assert "L’ordinateur (normal) lance " in said
    assert "L’ordinateur 2 (normal) lance " in said and "(normal) (" not in said, said
    status = await fake_discord.slash(yasmine, channel, "game status")
    assert "L’ordinateur (normal, bleu)\u00a0: " in status.content and ") (" not in status.content


@pytest.mark.fake_discord(guild_locale="es-ES")
async def test_a_game_opened_by_a_german_user_in_a_spanish_server_is_in_spanish_and_his_answers_in_german(
        fake_discord, bot_process):
    """The game's shared messages in the server's language (es-ES: Spanish), what the German host alone
    reads in German (English while this Tablero has no German catalogue: never a mix)."""
    german = i18n.locale_of("de")
    dieter, lucia = fake_discord.add_user("Dieter", locale="de"), fake_discord.add_user("Lucía", locale="es-419")
    channel = fake_discord.add_channel("partida")
    await fake_discord.slash(dieter, channel, "game new", game="parcheesi", seating="lobby")
    lobby = fake_discord.last_message(channel, lambda m: m.buttons)
    assert labels(lobby) == [i18n.text(f"lobby.button.{verb}", "es") for verb in ("join", "leave", "add-bot", "start")]
    assert "una nueva partida busca jugadores." in lobby.content
    refused = await fake_discord.click(dieter, lobby, label="Empezar")
    assert [m.content for m in told(refused)] == [i18n.text("error.player_count", german, min=2, max=4)]
    assert i18n.text("error.player_count", german, min=2, max=4) != i18n.text("error.player_count", "es", min=2, max=4)
    await fake_discord.click(lucia, lobby, label="Unirme")
    assert not told(await fake_discord.click(dieter, lobby, label="Empezar"))
    board = await fake_discord.wait_for_message(channel, lambda m: m.files)
    assert board.content.splitlines()[0].endswith("te toca (amarillo): tira.")   # the call to act
    assert "Puestos por orden de llegada: Dieter (amarillo), Lucía (rojo). Dieter empieza." in board.content
    not_yours = await fake_discord.slash(lucia, channel, "game roll")
    assert not_yours.content == i18n.text("error.not_your_turn", "es", player="Dieter"), "Lucía reads Spanish"
    rules = await fake_discord.slash(dieter, channel, "game rules")
    assert rules.content == i18n.text("rules.parcheesi", german)


@pytest.mark.fake_discord(guild_locale="es-419")
async def test_a_game_s_thread_is_named_in_the_game_s_language_and_its_opening_told_in_the_host_s(
        fake_discord, bot_process):
    """The thread's name is shared: the game's language (the server's), not the German host's."""
    dieter = fake_discord.add_user("Dieter", locale="de")
    hall = fake_discord.add_channel("sala")
    opened = await fake_discord.slash(dieter, hall, "game new", game="parcheesi-classic", thread=True)
    (thread,) = fake_discord.threads(hall)
    assert thread.name == "Parchís clásico · Dieter"
    assert opened.content == i18n.text("thread.opened", i18n.locale_of("de"), thread=f"<#{thread.id}>")
    lobby = fake_discord.last_message(thread, lambda m: m.buttons)
    assert labels(lobby)[0] == "Unirme"


@pytest.mark.fake_discord(guild_locale="pt-BR")
async def test_a_brazilian_server_plays_in_portuguese_with_its_own_letters(fake_discord, bot_process):
    """Lobby and board in Brazilian Portuguese; a blue piece is Z (azul), typed so and stored as B."""
    ana, bruno = fake_discord.add_user("ana", locale="pt-BR"), fake_discord.add_user("bruno", locale="pt-BR")
    channel = fake_discord.add_channel("jogo")
    await fake_discord.slash(ana, channel, "game new", game="pariti")
    lobby = fake_discord.last_message(channel, lambda m: m.buttons)
    assert "uma nova partida procura jogadores." in lobby.content and "Entrar" in labels(lobby)
    assert not (await fake_discord.click(bruno, lobby, label="Entrar")).followups
    assert not told(await fake_discord.click(ana, lobby, label="Começar"))
    board = await fake_discord.wait_for_message(channel, lambda m: m.files)
    assert "sua vez" in board.content.splitlines()[0]   # the call to act, in Portuguese

    game = Game(bot_process.database, "pariti", fake_discord)
    player = game.user(game.ruleset.to_move(game.state()))
    blue = next(a for a in game.ruleset.legal_actions(game.state()) if a.startswith("B"))
    brazilian = shown(game.ruleset, blue, "pt-BR")
    assert brazilian.startswith("Z")
    offered = await fake_discord.autocomplete(player, channel, "game move", "move", typed=brazilian.lower())
    assert offered[0]["value"] == blue and offered[0]["name"].startswith(f"{brazilian} · "), offered
    await fake_discord.slash(player, channel, "game move", move=brazilian)
    assert game.log()[-1][1:] == (blue, True)
