import pytest

from bot.services import Sessions
from bot.store import Store


@pytest.fixture
async def sessions(tmp_path):
    store = await Store.open(str(tmp_path / "s.sqlite3"))
    yield Sessions(store, think_budget_s=0.05)
    await store.close()
