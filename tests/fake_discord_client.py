"""A tiny discord.py bot for tests/fake_discord/test_fake_discord.py: run as a subprocess against the fake Discord.

Some commands break Discord's rules on purpose (late, too long, too many rows, answering twice) so that
the self-test can check the fake refuses them. FAKE_SHARD_COUNT and FAKE_SHARD_IDS ("0,1") choose its shards.
"""

import asyncio
import io
import logging
import os

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.webhook.async_ import async_context, interaction_response_params

FRUITS = [f"fruit {n:02d}" for n in range(40)]

discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
# With an explicit shard count (and after an invalidated session) discord.py dials its default gateway.
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])


class EditButton(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Edit me", custom_id="demo:edit")
    async def edit(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.edit_message(content=f"edited by {interaction.user.name}", view=None)


class SlowButton(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Slow", custom_id="demo:slow")
    async def slow(self, interaction: discord.Interaction, button: discord.ui.Button):
        """DEFERRED_UPDATE_MESSAGE, a channel post (another answer's last write), then, a while later (a starved bot
        storing the click), the clicked message edited through @original."""
        await interaction.response.defer()
        await interaction.channel.send("meanwhile")
        await asyncio.sleep(1.0)
        await interaction.edit_original_response(content=f"answered {interaction.user.name}", view=None)


class FruitMenu(discord.ui.View):
    @discord.ui.select(custom_id="demo:fruit", options=[discord.SelectOption(label=f) for f in FRUITS[:5]])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select):
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


# Auto-sharded: only this client asks GET /gateway/bot for the gateway URL (a plain Client dials
# wss://gateway.discord.gg directly, whatever Route.BASE says).
class Client(discord.AutoShardedClient):
    def __init__(self):
        shard_ids = os.environ.get("FAKE_SHARD_IDS")
        super().__init__(intents=discord.Intents.default(),
                         shard_ids=[int(s) for s in shard_ids.split(",")] if shard_ids else None,
                         shard_count=int(os.environ["FAKE_SHARD_COUNT"]) if shard_ids else None)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(demo)
        self.tree.add_command(anywhere)

    async def setup_hook(self):
        self.add_view(EditButton())
        self.add_view(BoardButtons())
        await self.tree.sync()


demo = app_commands.Group(name="demo", description="fake Discord self-test")


@demo.command(description="a file and a button")
@app_commands.choices(colour=[app_commands.Choice(name="Red", value="red"),
                              app_commands.Choice(name="Blue", value="blue")])
async def file(interaction: discord.Interaction, colour: app_commands.Choice[str], count: int = 1):
    data = f"{colour.value} x{count} for {interaction.locale.value}".encode()
    await interaction.response.send_message(f"here, {interaction.user.mention}",
                                            file=discord.File(io.BytesIO(data), "note.txt"), view=EditButton())


@demo.command(description="a button answered a while after its silent acknowledgement")
async def later(interaction: discord.Interaction):
    await interaction.response.send_message("click", view=SlowButton())


@demo.command(description="deferred, then a followup and an edit")
async def slow(interaction: discord.Interaction, seconds: float = 0.5, defer: bool = True):
    if defer:
        await interaction.response.defer(thinking=True, ephemeral=True)
    await asyncio.sleep(seconds)
    if defer:
        await interaction.edit_original_response(content="done")
        await interaction.followup.send("and a followup", file=discord.File(io.BytesIO(b"x" * 10), "x.bin"))
    else:
        await interaction.response.send_message("too late")


@demo.command(description="autocomplete")
async def pick(interaction: discord.Interaction, fruit: str):
    await interaction.response.send_message(f"you picked {fruit}", view=FruitMenu())


@pick.autocomplete("fruit")
async def pick_fruit(interaction: discord.Interaction, typed: str):
    matches = [f for f in FRUITS if typed in f] if typed != "all" else FRUITS
    limit = 25 if typed != "all" else len(matches)
    return [app_commands.Choice(name=f, value=f) for f in matches[:limit]]


@demo.command(description="rule breaking replies")
@app_commands.choices(kind=[app_commands.Choice(name=k, value=k) for k in ("long", "rows", "twice", "channel")])
async def bad(interaction: discord.Interaction, kind: str):
    if kind == "long":
        await interaction.response.send_message("x" * 2001)
    elif kind == "rows":  # discord.py's View stops at 5 rows, so send the raw payload
        rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": str(r), "custom_id": f"r{r}"}]}
                for r in range(6)]
        await async_context.get().create_interaction_response(
            interaction.id, interaction.token, session=interaction._session,
            params=interaction_response_params(4, {"content": "six rows", "components": rows}))
    elif kind == "twice":
        await interaction.response.send_message("once")
        await async_context.get().create_interaction_response(
            interaction.id, interaction.token, session=interaction._session,
            params=interaction_response_params(4, {"content": "twice"}))
    elif kind == "channel":
        await interaction.response.send_message("posting", ephemeral=True)
        await interaction.channel.send("a channel message", file=discord.File(io.BytesIO(b"png?"), "board.png"))


@demo.command(name="where", description="which shard answers")
async def which_shard(interaction: discord.Interaction):
    await interaction.response.send_message(f"shard {interaction.guild.shard_id} in {interaction.guild.name}")


@demo.command(description="edit a channel message by id; reply with Discord's error code")
async def edit(interaction: discord.Interaction, message: str):
    try:
        await interaction.channel.get_partial_message(int(message)).edit(content="edited")
        await interaction.response.send_message("edited", ephemeral=True)
    except discord.HTTPException as error:
        await interaction.response.send_message(f"error {error.status} {error.code}", ephemeral=True)
    except aiohttp.ClientError as error:   # the connection closed unanswered
        await interaction.response.send_message(f"lost {type(error).__name__}", ephemeral=True)


@demo.command(description="the same post twice with one enforced nonce, then the history")
async def nonce(interaction: discord.Interaction):
    await interaction.response.defer(ephemeral=True)
    first = await interaction.channel.send("board", nonce="board-1")
    second = await interaction.channel.send("board again", nonce="board-1")
    history = [m.content async for m in interaction.channel.history(limit=5)]
    await interaction.followup.send(f"same={first.id == second.id} history={history}", ephemeral=True)


@demo.command(description="what discord.py and the interaction say about permissions")
async def perms(interaction: discord.Interaction, who: discord.Member, where: discord.TextChannel):
    seen = where.permissions_for(who)
    await interaction.response.send_message(
        f"view={seen.view_channel} manage={seen.manage_messages} asker_view={interaction.permissions.view_channel} "
        f"asker_manage={interaction.permissions.manage_messages} "
        f"bot_threads={interaction.app_permissions.create_public_threads}",
        ephemeral=True)


@demo.command(description="open a public thread and post in it")
async def thread(interaction: discord.Interaction, name: str):
    await interaction.response.defer(ephemeral=True)
    try:
        opened = await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread)
    except discord.Forbidden as error:
        await interaction.followup.send(f"forbidden {error.code}", ephemeral=True)
        return
    await opened.send("inside", file=discord.File(io.BytesIO(b"png?"), "board.png", description="a board"))
    await interaction.followup.send(f"thread {opened.id} {opened.parent_id}", ephemeral=True)


@demo.command(description="a file with alt text of this length")
async def alt(interaction: discord.Interaction, length: int):
    await interaction.response.send_message("alt", ephemeral=True)
    await interaction.channel.send(file=discord.File(io.BytesIO(b"png?"), "board.png", description="d" * length))


@demo.command(description="a channel message mentioning the user; quiet: with allowed_mentions none")
async def ping(interaction: discord.Interaction, quiet: bool):
    await interaction.response.send_message("ok", ephemeral=True)
    mentions = discord.AllowedMentions.none() if quiet else discord.AllowedMentions(users=[interaction.user])
    await interaction.channel.send(f"{interaction.user.mention}, your turn", allowed_mentions=mentions)


# Declared for both installations and every context: usable in DMs and group DMs between users and in servers
# without the bot, where only the interaction endpoints work.
anywhere = app_commands.Group(name="anywhere", description="fake Discord self-test, user-installable",
                              allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
                              allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True,
                                                                              private_channel=True))


def _described(interaction: discord.Interaction) -> str:
    owners = ",".join(f"{k}:{v}" for k, v in sorted(interaction._integration_owners.items()))
    context = interaction.context
    return (f"context={context.guild},{context.dm_channel},{context.private_channel}"
            f" owners={owners} channel={type(interaction.channel).__name__}:{interaction.channel.id}"
            f" guild={interaction.guild_id} app_permissions={interaction.app_permissions.value}"
            f" user={interaction.user.id}")


def _board(text: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode()), "board.png", description=text)


class BoardButtons(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Next", custom_id="anywhere:next")
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button):
        """UPDATE_MESSAGE with a new file and controls, then a follow-up that pings the clicker."""
        await interaction.response.edit_message(content=f"next by {interaction.user.name}",
                                                attachments=[_board("next")], view=BoardButtons())
        await interaction.followup.send(f"{interaction.user.mention}, your turn ({_described(interaction)})")

    @discord.ui.button(label="Later", custom_id="anywhere:later")
    async def later(self, interaction: discord.Interaction, button: discord.ui.Button):
        """DEFERRED_UPDATE_MESSAGE, then the clicked message edited through @original; an ephemeral follow-up."""
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"later by {interaction.user.name}",
                                                 attachments=[_board("later")], view=None)
        await interaction.followup.send("only you see this", ephemeral=True)


@anywhere.command(description="what the interaction says about where it is; a board with buttons")
async def where(interaction: discord.Interaction):
    await interaction.response.send_message(_described(interaction), file=_board("first"), view=BoardButtons())


@anywhere.command(description="post in the channel through the channel endpoints; reply with Discord's answer")
async def post(interaction: discord.Interaction):
    try:
        await interaction.channel.send("posted")
        answer = "posted"
    except discord.HTTPException as error:
        answer = f"error {error.status} {error.code}"
    await interaction.response.send_message(answer, ephemeral=True)


@anywhere.command(description="answer, then this many follow-ups (mentioning the user unless quiet)")
async def followups(interaction: discord.Interaction, count: int, quiet: bool = False, wait: float = 0.0):
    await interaction.response.send_message("answered")
    await asyncio.sleep(wait)
    mentions = discord.AllowedMentions.none() if quiet else discord.AllowedMentions.all()
    sent = []
    for number in range(count):
        try:
            await interaction.followup.send(f"{number} {interaction.user.mention}", allowed_mentions=mentions)
            sent.append("ok")
        except discord.HTTPException as error:
            sent.append(f"{error.status} {error.code}")
    try:
        await interaction.edit_original_response(content=" ".join(sent))
    except discord.HTTPException:   # the token expired meanwhile
        pass



@anywhere.command(description="defer (thinking), then a follow-up: Discord makes it the deferred reply")
async def deferred(interaction: discord.Interaction, ephemeral: bool = False):
    await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    await interaction.followup.send(f"board for {interaction.user.mention}", file=_board("deferred"))
    await interaction.followup.send("a real follow-up", ephemeral=True)


@anywhere.command(description="answer in public three ways; say what Discord answered of each")
async def public(interaction: discord.Interaction):
    """A public deferral, its edit, a public follow-up: what the bot learns of each (the callback's
    response_message_ephemeral, the flags of the messages Discord returns)."""
    deferred = await interaction.response.defer(thinking=True)
    edited = await interaction.edit_original_response(content="answer")
    followed = await interaction.followup.send("follow-up", wait=True)
    said = f"deferred={deferred.is_ephemeral()} edited={edited.flags.ephemeral} followed={followed.flags.ephemeral}"
    await interaction.edit_original_response(content=said)


if __name__ == "__main__":
    Client().run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO)
