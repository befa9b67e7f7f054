"""A tiny discord.py bot for tests/test_fake_discord.py: run as a subprocess against the fake Discord.

Some commands break Discord's rules on purpose (late, too long, too many rows, answering twice) so that
the self-test can check the fake refuses them.
"""

import asyncio
import io
import logging
import os

import discord
from discord import app_commands
from discord.webhook.async_ import async_context, interaction_response_params

FRUITS = [f"fruit {n:02d}" for n in range(40)]

discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]


class EditButton(discord.ui.View):
    def __init__(self):
        super().__init__(timeout=None)

    @discord.ui.button(label="Edit me", custom_id="demo:edit")
    async def edit(self, interaction: discord.Interaction, button: discord.ui.Button):
        await interaction.response.edit_message(content=f"edited by {interaction.user.name}", view=None)


class FruitMenu(discord.ui.View):
    @discord.ui.select(custom_id="demo:fruit", options=[discord.SelectOption(label=f) for f in FRUITS[:5]])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select):
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


# Auto-sharded: only this client asks GET /gateway/bot for the gateway URL (a plain Client dials
# wss://gateway.discord.gg directly, whatever Route.BASE says).
class Client(discord.AutoShardedClient):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(demo)

    async def setup_hook(self):
        self.add_view(EditButton())
        await self.tree.sync()


demo = app_commands.Group(name="demo", description="fake Discord self-test")


@demo.command(description="a file and a button")
@app_commands.choices(colour=[app_commands.Choice(name="Red", value="red"), app_commands.Choice(name="Blue", value="blue")])
async def file(interaction: discord.Interaction, colour: app_commands.Choice[str], count: int = 1):
    data = f"{colour.value} x{count} for {interaction.locale.value}".encode()
    await interaction.response.send_message(f"here, {interaction.user.mention}", file=discord.File(io.BytesIO(data), "note.txt"),
                                            view=EditButton())


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


if __name__ == "__main__":
    Client().run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO)
