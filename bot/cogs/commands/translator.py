"""Slash-command descriptions and choice names in the user's language,
from the same translation files as everything else (bot.domain.i18n).

Command and option *names* stay English everywhere: they are the product's
contract and what players share in chat."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.domain import i18n


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if key is None or context.location is app_commands.TranslationContextLocation.command_name \
                or context.location is app_commands.TranslationContextLocation.group_name \
                or context.location is app_commands.TranslationContextLocation.parameter_name:
            return None
        ours = i18n.locale_of(locale)
        if ours == i18n.DEFAULT_LOCALE or not locale.value.startswith(ours):
            return None
        text = i18n.catalogue(ours).get(key)
        return text if isinstance(text, str) else None   # a plural's forms are no command text


def command_text(key: str) -> app_commands.locale_str:
    """A command description or choice name: English from the catalogue, other
    languages through CatalogueTranslator."""
    return app_commands.locale_str(i18n.text(key, i18n.DEFAULT_LOCALE), key=key)
