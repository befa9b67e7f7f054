"""The packages: bot and renderer, and the repository's data/ folder shipped as the package
`tablero_data` (boards, fonts, translations; read through importlib.resources), so that an
installed bot runs outside the checkout. pyproject.toml holds everything else; its [tool.setuptools]
table cannot map a folder under another name next to packages it finds."""
from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["bot", "bot.*", "renderer", "renderer.*"]), "tablero_data"],
    package_dir={"tablero_data": "data"},
    package_data={"tablero_data": ["boards/*.json", "fonts/*", "i18n/*/*.json"]},
)
