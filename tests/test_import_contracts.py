"""The import-linter contracts in pyproject.toml fire: an import from gather into consolidate
(or back), or from the extraction layer up into the dream, breaks one."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
CONTRACT_TYPES: dict[str, Any] = {
    "forbidden": ForbiddenContract,
    "independence": IndependenceContract,
    "layers": LayersContract,
}


@pytest.fixture(scope="module")
def contracts() -> list[dict[str, Any]]:
    configure()
    with PYPROJECT.open("rb") as f:
        found: list[dict[str, Any]] = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    return found


def broken(contracts: list[dict[str, Any]], *added: tuple[str, str]) -> list[str]:
    """The names of the contracts the package breaks with ``added`` imports put in."""
    graph = grimp.build_graph("dreamgit")
    for importer, imported in added:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="")
    names = []
    for options in contracts:
        kind = CONTRACT_TYPES[options["type"]]
        settings = {
            k: str(v).lower() if isinstance(v, bool) else v
            for k, v in options.items()
            if k not in ("name", "type")
        }
        contract = kind(options["name"], {"root_packages": ["dreamgit"]}, settings)
        if not contract.check(graph, verbose=False).kept:
            names.append(options["name"])
    return names


def test_the_package_as_it_is_keeps_every_contract(contracts: list[dict[str, Any]]) -> None:
    """No contract is broken today."""
    assert broken(contracts) == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("dreamgit.dream.gather.phase", "dreamgit.dream.consolidate.phase"),
        ("dreamgit.dream.consolidate.supersede", "dreamgit.dream.gather.attribution"),
    ],
)
def test_gather_and_consolidate_importing_each_other_breaks_the_independence_contract(
    contracts: list[dict[str, Any]], importer: str, imported: str
) -> None:
    """Either direction breaks it; what both need belongs in dreamgit.extract."""
    assert broken(contracts, (importer, imported)) == [
        "Gather and consolidate never import each other: what both need is in dreamgit.extract"
    ]


def test_extraction_importing_the_dream_breaks_the_layers(
    contracts: list[dict[str, Any]],
) -> None:
    """The extraction layer sits below the dream: it never imports it (the layers say so, and
    so does extract's own "May import" line)."""
    found = broken(contracts, ("dreamgit.extract.names", "dreamgit.dream.limits"))
    assert [name.split(":")[0] for name in found] == [
        "Layers",
        "extract imports only what its 'May import' line names",
    ]


def test_the_plumbing_importing_the_porcelain_breaks_the_layers(
    contracts: list[dict[str, Any]],
) -> None:
    """gitstore (git objects, refs, locks) sits below store (memories): an import from the
    plumbing up into the porcelain breaks the layers and gitstore's "May import" line."""
    found = broken(contracts, ("dreamgit.gitstore.refs", "dreamgit.store.layout"))
    assert [name.split(":")[0] for name in found] == [
        "Layers",
        "gitstore imports only what its 'May import' line names",
    ]
