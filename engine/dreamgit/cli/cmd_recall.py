"""``recall``, ``promote`` and ``mcp``: asking the memory, promoting by recalls, serving agents."""

from __future__ import annotations

import click

from dreamgit.cli.recallrun import recall_output
from dreamgit.cli.render import emit_json, json_option
from dreamgit.cli.state import CliState, pass_state
from dreamgit.errors import UserError

__all__ = ["mcp", "promote", "recall"]


@click.command()
@click.argument("query")
@click.option("--top-k", type=int, default=None, help="At most this many memories.")
@click.option("--chars", type=int, default=None, help="At most this many characters of text.")
@click.option("--topic", default=None, help="Only memories of this topic.")
@click.option("--type", "type_", default=None, help="Only memories of this type.")
@click.option("--scope", default=None, help="Only memories tagged with (or in the topic) SCOPE.")
@click.option("--no-record", is_flag=True, help="Leave no recall signal.")
@json_option
@pass_state
def recall(
    state: CliState,
    query: str,
    top_k: int | None,
    chars: int | None,
    topic: str | None,
    type_: str | None,
    scope: str | None,
    no_record: bool,
    as_json: bool,
) -> None:
    """The active memories that answer QUERY, best first (leaves a recall signal)."""
    from dreamgit.recall.cached import cached_recall
    from dreamgit.recall.query import RecallQuery

    ask = RecallQuery(
        query,
        top_k=top_k,
        chars=chars,
        topic=topic,
        type=type_,
        scope=scope,
        record=False if no_record else None,
    )
    # An agent's hook runs this on every prompt: answered from the derived store when it
    # holds HEAD's commit (no git opened), else through the repository, read-only (no
    # MEMORY.md writer to set up, so the writing modules stay unimported).
    result = cached_recall(state.path, ask, now=state.now())
    if result is None:
        from dreamgit.recall.search import recall as do_recall
        from dreamgit.store.repo import MemoryRepo

        repo = MemoryRepo.open(state.path)
        repo.require_initialised()
        result = do_recall(repo, ask, now=state.now())
    out, err = recall_output(result, as_json=as_json)
    if err is not None:
        click.echo(err, err=True)
    if out is not None:
        click.echo(out)


@click.command()
@click.option("--apply", "apply_", is_flag=True, help="Promote (one commit each); else preview.")
@click.option("--limit", type=int, default=None, help="At most N promotions (default: rules).")
@click.option("--explain", "explain_id", default=None, metavar="ID", help="Every figure for ID.")
@json_option
@pass_state
def promote(
    state: CliState, apply_: bool, limit: int | None, explain_id: str | None, as_json: bool
) -> None:
    """Promote short-term memories that recalls proved useful (OpenClaw's deep phase)."""
    from dreamgit.cli.opening import open_repo
    from dreamgit.recall import promotion

    repo = open_repo(state)
    now = state.now()
    if explain_id is not None:
        item = promotion.explain_id(repo, explain_id, now=now)
        if as_json:
            emit_json(item.to_dict())
            return
        click.echo(f"{item.memory.id} ({item.memory.path}), priority {item.memory.priority}")
        click.echo(f"candidate: {'yes' if item.candidate else 'no'}")
        for s in item.signals:
            click.echo(
                f"  {s['name']:<14} value {s['value']:.3f} x weight {s['weight']:.3f}"
                f" = {s['contribution']:.3f}"
            )
        click.echo(f"score: {item.score:.3f}")
        for g in item.gates:
            click.echo(f"  gate {g['name']:<20} {'pass' if g['passed'] else 'FAIL'}  {g['when']}")
        click.echo(f"result: {'promote' if item.promote else 'stay'}")
        return
    if apply_:
        done = promotion.apply_promotions(repo, now=now, limit=limit)
        if as_json:
            emit_json([{**e.to_dict(), "commit": c} for e, c in done])
            return
        for e, _commit in done:
            click.echo(f"promoted {e.memory.id}\t{e.score:.3f}\t{e.memory.text}")
        if not done:
            click.echo("nothing to promote")
        return
    chosen = promotion.plan_promotions(repo, now=now, limit=limit)
    if as_json:
        emit_json([e.to_dict() for e in chosen])
        return
    for e in chosen:
        click.echo(f"would promote {e.memory.id}\t{e.score:.3f}\t{e.memory.text}")
    if not chosen:
        click.echo("nothing to promote")


@click.command()
@pass_state
def mcp(state: CliState) -> None:
    """Serve this memory to MCP clients over stdio (recall, remember, forget, …).

    Needs the optional extra: pip install 'dreamgit[mcp]'.
    """
    try:
        from dreamgit.integrations.mcp import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise UserError(
            "dreamgit mcp needs the MCP SDK, which is not installed",
            hint="install the extra: pip install 'dreamgit[mcp]'",
        ) from None
    serve(state.path, now=state.fixed_now())
