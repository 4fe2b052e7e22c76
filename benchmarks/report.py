"""The report of `bench.py`: latest.json (everything), latest.md (short) and PNG plots.

`write(results, folder)` writes them and returns their paths; `summary(results)` is the
markdown of the key tables (also printed at the end of a run). Parts that were not run are left
out; a quick run writes `quick.json` and `quick.md` instead, so it never overwrites a real
report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PEER_TITLES = {"openspiel": "OpenSpiel", "rlcard": "RLCard"}


def _num(x: float | None) -> str:
    if x is None:
        return "–"
    if x >= 100_000:
        return f"{x / 1000:,.0f}k"
    if x >= 10_000:
        return f"{x / 1000:.1f}k"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def _spread(s: dict[str, float] | None, scale: float = 1.0, fmt: Any = _num) -> str:
    if not s:
        return "–"
    return f"{fmt(s['median'] * scale)} ({fmt(s['min'] * scale)}–{fmt(s['max'] * scale)})"


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1000:.1f}"


def _ratio(s: dict[str, float]) -> str:
    return f"{s['median']:.2f}x ({s['min']:.2f}–{s['max']:.2f})"


def _engine_md(e: dict[str, Any]) -> list[str]:
    out = [f"### Engine: uniformly random complete games, {e['rounds']} interleaved rounds of "
           f"{e['seconds_per_batch']:g} s batches",
           "",
           "Median (min–max) over rounds; ratios are taken within each round by CPU time "
           "(the machine is shared). Ours through the public "
           "API (`is_over`, `to_move`, `legal_actions`, checked `apply`); OpenSpiel's "
           "`crazy_eights` through pyspiel from Python (`legal_actions`/`apply_action`, chance "
           "sampled from `chance_outcomes` by `pyspiel.sample_action`); RLCard's `uno` by "
           "`env.run` with `RandomAgent`s.",
           ""]
    if e.get("peer_note"):
        out += [f"*{e['peer_note']}*", ""]
    ratio_of = {(r["numerator"], r["denominator"]): r["ratio"] for r in e["ratios"]}
    out += ["| System | Game | Players | Decisions/s (wall) | Decisions/CPU-s | Games/s (wall) "
            "| Decisions/game | Mau Mau ÷ this (CPU) |", "|---|---|--:|--:|--:|--:|--:|--:|"]
    for row in e["rows"]:
        system = row["system"]
        vs = "–"
        if system != "tiergarten":
            key = next((k for k in ratio_of if k[1] == f"{system}/{row['players']}"
                        and k[0] == f"maumau/{row['players']}"), None)
            key = key or next((k for k in ratio_of if k[1] == f"{system}/{row['players']}"),
                              None)
            if key:
                vs = f"{_ratio(ratio_of[key])} ({key[0].split('/')[1]}p)"
        out.append(f"| {PEER_TITLES.get(system, system)} | {row['game']} | {row['players']} | "
                   f"{_spread(row['decisions_per_s'])} | "
                   f"{_spread(row['cpu_decisions_per_s'])} | {_spread(row['games_per_s'])} | "
                   f"{row['decisions_per_game']:.0f} | {vs} |")
    return out


def _targets_md(results: dict[str, Any]) -> list[str]:
    rows = []
    e = results.get("engine")
    if e:
        for t in e["targets"]:
            measured = ", ".join(f"{k} {_ratio(v)}" for k, v in t["measured"].items())
            rows.append((t["target"], measured, t["passed"]))
    ld = results.get("load")
    if ld:
        target = ld["target"]
        for backend, b in ld["backends"].items():
            name = f"{target['tables']} tables, {target['connections']} clients, p99 < " \
                   f"{target['p99_s'] * 1000:.0f} ms, zero errors ({backend})"
            if "error" in b:
                rows.append((name, b["error"], False))
            elif b.get("target"):
                s = b["target"]
                rows.append((name, f"p99 {_spread(s['p99_s'], 1000, _ms1)} ms, errors "
                                   f"{s['errors']}; {s['runs_within_target']} of {s['runs']} "
                                   f"runs within target", s["passed"]))
    for part, where in (("cluster", "on this machine"),
                        ("cluster_capped", "each worker held to its own share of the CPU")):
        c = results.get(part)
        ratio = scaling(c) if c else None
        if c and ratio is not None:
            held = {n: s["largest_passing"] for n, s in c["by_workers"].items()}
            rows.append((f"2 workers behind the proxy hold >= 1.6x the tables of 1 ({where})",
                         f"{ratio:.2f}x ({held['2']} / {held['1']} tables)", ratio >= 1.6))
    if not rows:
        return []
    out = ["### Targets", "",
           "Engine ratios: decisions per CPU second, within each round, median (min–max) over "
           "rounds; the verdict takes the median. Server: the verdict takes the median p99 of "
           "the repeated runs.", "",
           "| Target | Measured (median (min–max)) | |", "|---|---|---|"]
    out += [f"| {a} | {b} | {'**pass**' if ok else '**miss**'} |" for a, b, ok in rows]
    return out


def _cluster_md(c: dict[str, Any]) -> list[str]:
    cap = c.get("worker_cpu")
    title = "### Several workers behind Caddy (PostgreSQL, Redis)" + (
        f", each worker held to {cap:g} of a core" if cap else "")
    how = ("Clients connect through the proxy only, which sends a table's connections to the "
           "worker its id hashes to (deploy/Caddyfile); that worker owns the table"
           if c.get("routed") else
           "Clients connect through the proxy only (round robin): most connections of a "
           "table are relayed to its owner")
    repeats = max((len(r.get("p99_runs", [])) for s in c["by_workers"].values()
                   for r in s["steps"]), default=1)
    if repeats > 1:
        how += (f". Each step ran {repeats} times on fresh servers; the row is the run with "
                "the median p99 (of two, the worse; every run's p99 in brackets), and a step "
                "holds when that median is under 50 ms and no run had an error")
    if cap:
        how += (f". Each worker runs in a cgroup with a CPU quota of {cap:g} core (per 10 ms), "
                "so the workers have shares of their own, as on a machine with a core per "
                "worker, while the clients, Caddy, Redis and PostgreSQL share the rest")
    out = [title, "",
           f"{c.get('postgresql', '')}; {c.get('redis', '')}; Caddy {c.get('caddy', '')}. "
           f"{how}. CPU: milliseconds of CPU per act, summed over the "
           "workers, and Redis's and Caddy's.", "",
           "| workers | tables | actions/s | p50 | p99 | errors | workers ms/act | Redis "
           "ms/act | Caddy ms/act | clients CPU |", "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for n, sweep in c["by_workers"].items():
        for r in sweep["steps"]:
            ms = r["cpu_ms_per_act"]
            lat = r["latency_s"]
            p99 = _ms(lat["p99"])
            if len(r.get("p99_runs", [])) > 1:
                p99 += " (" + ", ".join(_ms(x) for x in r["p99_runs"]) + ")"
            out.append(f"| {n} | {r['tables']} | {r['actions_per_s']:.0f} | "
                       f"{_ms(lat['p50'])} | {p99} | {r['errors']} | "
                       f"{sum(v for k, v in ms.items() if k.startswith('worker')):.2f} | "
                       f"{ms['redis']:.2f} | {ms['caddy']:.2f} | "
                       f"{r['client_cpu_share']:.0%} |")
    out += ["", "Held (p99 < 50 ms, no errors): " + ", ".join(
        f"{n} worker(s): {s['largest_passing']} tables" for n, s in c["by_workers"].items())]
    return out


def scaling(c: dict[str, Any]) -> float | None:
    """Tables two workers held over tables one held (None: not both measured or held)."""
    held = {n: s["largest_passing"] for n, s in c["by_workers"].items()}
    return held["2"] / held["1"] if held.get("1") and held.get("2") else None


def _failover_md(f: dict[str, Any]) -> list[str]:
    return ["### Failover after kill -9 of a worker", "",
            f"{len(f['runs'])} runs; each kills the worker owning the most tables. Time from "
            "the kill to the first new state of each of its tables at a watcher "
            f"reconnecting through the proxy (lease {f['lease_ttl_s']:g} s): median "
            f"{_sec(f['median_s'])}, max {_sec(f['max_s'])} (per run max: "
            + ", ".join(_sec(x) for x in f["per_run_max_s"]) + "); tables that never "
            f"resumed: {f['tables_never_resumed']}; every log whole and what was told: "
            f"{f['all_whole']}."]


def _sec(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f} s"


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1000:.1f} ms"


def _ms1(x: float) -> str:
    return f"{x:.1f}"


def _bots_md(b: dict[str, Any]) -> list[str]:
    out = [f"### Bots: seconds per move against `normal` bots ({b['repeats']} runs of "
           f"{b['moves_per_run']} timed moves per level)",
           "", "p50 and p99 in ms: median (min–max) over runs; max over all moves; ISMCTS "
           "playouts/s median (min–max).", "",
           "| Game | Level | p50 ms | p99 ms | max ms | playouts/s |",
           "|---|---|--:|--:|--:|--:|"]
    for r in b["rows"]:
        out.append(f"| {r['game']} | {r['level']} | {_spread(r['p50_s'], 1000, _ms2)} | "
                   f"{_spread(r['p99_s'], 1000, _ms2)} | {r['max_s'] * 1000:.2f} | "
                   f"{_spread(r['playouts_per_s'])} |")
    return out


def _ms2(x: float) -> str:
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def _load_md(ld: dict[str, Any]) -> list[str]:
    think = ld["think_s"]
    out = [f"### Server under load: Mau Mau tables of four simulated people, "
           f"{ld['seconds_per_step']:g} s per step",
           "",
           f"One server process (uvicorn, one worker, a fresh database per step), one client "
           f"process (asyncio, real websockets on loopback). A person thinks "
           f"{think[0]:g}–{think[1]:g} s (uniform) before acting on its turn. Latency: from "
           f"sending an intent to the arrival of its `state` at every seat of the table. "
           f"Memory: the server's RSS growth per table. CPU: share of one core during the step. "
           f"Client loop lag: how late a 10 ms sleep wakes in the client process, the "
           f"machine's own scheduling noise, which every latency includes. Errors (races): "
           f"races are two seats acting on one version (a catch), refused as `stale`.",
           ""]
    if ld.get("server_commit"):
        out += [f"Server code: {ld['server_commit']}.", ""]
    for backend, b in ld["backends"].items():
        if "error" in b:
            out += [f"**{backend}**: not measured: {b['error']}", ""]
            continue
        version = b.get("postgresql") or (f"SQLite {b['sqlite']}" if b.get("sqlite") else "")
        out += [f"**{backend}** ({version}): largest step that held the target (p99 < "
                f"{ld['target']['p99_s'] * 1000:.0f} ms, no error): "
                f"{b['largest_passing'] or 'none'}; first that missed: "
                f"{b['first_failing'] or 'none'}; bends at (every larger step missed): "
                f"{b.get('bends_at') or 'not within the steps tried'}.", "",
                "| Tables | Clients | Actions/s (offered) | p50 ms | p99 ms | max ms | Errors "
                "(races) | "
                "KiB/table | Server CPU | Clients CPU | Client loop lag p99 ms | Load avg |",
                "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
        for r in b["steps"]:
            lat = r["latency_s"]
            out.append(f"| {r['tables']} | {r['connections']} | {r['actions_per_s']:.0f} "
                       f"({r['offered_actions_per_s'] or 0:.0f}) | {_ms(lat['p50'])} | "
                       f"{_ms(lat['p99'])} | {_ms(lat['max'])} | "
                       f"{r['errors']} ({r.get('races', 0)}) | "
                       f"{r['memory_per_table_kb'] if r['tables_made'] else 0:.0f} | "
                       f"{(r.get('server_cpu_share') or 0) * 100:.0f}% | "
                       f"{r['client_cpu_share'] * 100:.0f}% | "
                       f"{_ms((r.get('client_loop_lag_s') or {}).get('p99'))} | "
                       f"{(r.get('load_average') or [0])[0]:.1f} |")
        s = b.get("target")
        if s:
            out += ["", f"{s['tables']} tables over {s['runs']} runs: actions/s "
                        f"{_spread(s['actions_per_s'])}, p50 {_spread(s['p50_s'], 1000, _ms1)} "
                        f"ms, p99 {_spread(s['p99_s'], 1000, _ms1)} ms, KiB/table "
                        f"{_spread(s['memory_per_table_kb'])}, errors {s['errors']}."]
        kinds: dict[str, int] = {}
        for r in b["steps"]:
            for k, v in r["error_kinds"].items():
                kinds[k] = kinds.get(k, 0) + v
        if kinds:
            out += ["", "Errors by kind: " + ", ".join(f"{k} {v}" for k, v in kinds.items())]
        out.append("")
    return out


def _rl_md(r: dict[str, Any]) -> list[str]:
    lines = ["## RL: batched envs next to the unbatched ones and PettingZoo's classic envs", "",
             f"Mau Mau at {r['options']['players']} players, one round an episode; random legal "
             "ids from the masks; an agent step is one decision in one game. Median of "
             f"{r['rounds']} interleaved rounds of {r['seconds']:g} s (min–max by wall-clock); "
             "per CPU s counts every process taking part (workers included). Target: "
             f"{r['target']:,} agent steps/s for Mau Mau, batched.", "",
             "| environment | agent steps/s (wall) | per CPU s |", "| --- | --- | --- |"]
    for row in r["rows"]:
        if not row["available"]:
            lines.append(f"| {row['label']} | unavailable (pettingzoo[classic] in the peers' "
                         "venv: `make peers`) | |")
            continue
        w = row["wall"]
        cpu = f"{row['cpu']:,.0f}" if row.get("cpu") else "–"
        lines.append(f"| {row['label']} | {w['median']:,.0f} ({w['min']:,.0f}–{w['max']:,.0f})"
                     f" | {cpu} |")
    return lines


def _quickmatch_md(q: dict[str, Any]) -> list[str]:
    m = q["memory"]
    lines = ["## Quick match: people queueing over a minute", "",
             f"{m['people']:,} simulated people join over a simulated {m['minute_s']:g} s "
             "(mixed games, counts, rules and bot waits; accounts of spread ratings, a fifth "
             "guests of every level), one pairing round a simulated second on an injected "
             "clock (`benchmarks/quickmatch.py`). Time to a match is simulated seconds; the "
             "gap is the spread of the openskill ordinals of a match of two or more people; "
             "CPU is the pairing process's own (Redis's server not counted).", "",
             "| queue | matched | matches (people only / with bots) | left waiting (never) "
             "| time to a match p50 / p99 / max | rating gap p50 / p99 / max "
             "| CPU per match | CPU per round |", "| --- | --- | --- | --- | --- | --- | --- "
             "| --- |"]
    for name in ("memory", "redis"):
        r = q.get(name)
        if not r:
            continue
        w, g = r["wait_s"], r["gap"]
        lines.append(
            f"| {name} | {r['matched']:,} of {r['people']:,} | {r['matches']} "
            f"({r['people_only']} / {r['with_bots']}) | {r['left_waiting']} "
            f"({r['left_never']}) | {w['p50']:.1f} / {w['p99']:.1f} / {w['max']:.1f} s "
            f"| {g['p50']:.2f} / {g['p99']:.2f} / {g['max']:.2f} "
            f"| {r['cpu_per_match_ms']:.2f} ms | {r['cpu_per_round_ms']:.2f} ms |")
    return lines


def summary(results: dict[str, Any]) -> str:
    lines: list[str] = []
    commands = results.get("commands", {})
    for part, render in (("engine", _engine_md), ("bots", _bots_md), ("load", _load_md),
                         ("cluster", _cluster_md), ("cluster_capped", _cluster_md),
                         ("failover", _failover_md), ("rl", _rl_md),
                         ("quickmatch", _quickmatch_md)):
        if results.get(part):
            rendered = render(results[part])
            when = results[part].get("ran")
            if when:
                rendered[1:1] = ["", f"Ran {when['when']} at commit `{when['commit']}`, "
                                     f"{when['seconds'] / 60:.1f} min, load average "
                                     f"{when['load_average_at_start'][0]:.1f} → "
                                     f"{when['load_average_at_end'][0]:.1f} "
                                     f"(2 cores, shared). Reproduce: `{when['command']}`"]
            elif part in commands:
                rendered[1:1] = ["", f"Reproduce: `{commands[part]}`"]
            lines += rendered + [""]
    return "\n".join(_targets_md(results) + [""] + lines)


def _mammuz_build(m: dict[str, Any]) -> str:
    """How MammuZ ran: with its optional C kernel or as pure Python (older reports recorded
    whether its modules were compiled with mypyc)."""
    if "mammuz_kernel" in m:
        return ("; MammuZ with its C kernel" if m["mammuz_kernel"]
                else "; MammuZ as pure Python (no C kernel)")
    return {True: "; MammuZ's hot modules compiled (mypyc and C)",
            False: "; MammuZ as pure Python"}.get(m.get("mammuz_compiled"), "")


def markdown(results: dict[str, Any], plots: list[Path]) -> str:
    m = results["machine"]
    pk = m["packages"]
    peers = (results.get("engine") or {}).get("peer_versions") or {}
    head = [
        "# Benchmarks" + (" (quick smoke run: not figures to quote)" if results["quick"] else ""),
        "",
        f"- When: {m['when']}, commit `{m['commit']}`"
        + (" (with uncommitted changes in src/)" if m.get("dirty") else ""),
        f"- Machine: {m['cpu']}, {m['cores']} cores, {m['memory']} memory, {m['platform']}; "
        f"load average {m['load_average_at_start'][0]:.2f} at the start, "
        f"{m.get('load_average_at_end', [0])[0]:.2f} at the end (the machine was shared)",
        f"- Ours: {m['python']}, tiergarten {pk.get('tiergarten')}, fastapi {pk.get('fastapi')}, "
        f"uvicorn {pk.get('uvicorn')}, websockets {pk.get('websockets')}, sqlalchemy "
        f"{pk.get('sqlalchemy')}, psycopg {pk.get('psycopg')}, uvloop {pk.get('uvloop')}"
        + _mammuz_build(m),
    ]
    if peers:
        head.append(f"- Peers (own venv `benchmarks/.peers`): Python {peers.get('python')}, "
                    f"open-spiel {peers.get('open_spiel')}, rlcard {peers.get('rlcard')}, "
                    f"numpy {peers.get('numpy')}")
    head += ["- Reproduce: `make bench` (= `python benchmarks/bench.py` after `make peers`, "
             "about 12 minutes); each part below names when it ran, how busy the machine was "
             f"and its own command (this file: `{m['command']}`)", ""]
    body = summary(results)
    pics = [f"![{p.stem}]({p.name})" for p in plots]
    return "\n".join(head + [body, *pics, ""])


def plots(results: dict[str, Any], folder: Path, prefix: str) -> list[Path]:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    made = []
    e = results.get("engine")
    if e and e["rows"]:
        fig, ax = plt.subplots(figsize=(9, 4.5))
        labels = [f"{PEER_TITLES.get(r['system'], 'ours')}\n{r['game']} {r['players']}p"
                  for r in e["rows"]]
        med = [r["decisions_per_s"]["median"] for r in e["rows"]]
        lo = [m - r["decisions_per_s"]["min"] for m, r in zip(med, e["rows"], strict=True)]
        hi = [r["decisions_per_s"]["max"] - m for m, r in zip(med, e["rows"], strict=True)]
        colors = ["tab:blue" if r["system"] == "tiergarten" else "tab:orange"
                  for r in e["rows"]]
        ax.bar(range(len(med)), med, yerr=[lo, hi], color=colors, capsize=2)
        ax.set_xticks(range(len(med)), labels, rotation=90, fontsize=7)
        ax.set_ylabel("decisions/s (median, min–max)")
        ax.set_title("Random play: decisions per second (blue: tiergarten, orange: peers)")
        fig.tight_layout()
        made.append(_save(fig, folder / f"{prefix}engine.png"))
        plt.close(fig)
    ld = results.get("load")
    if ld and any("steps" in b for b in ld["backends"].values()):
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
        for (backend, b), color in zip(ld["backends"].items(), ("tab:blue", "tab:green",
                                                                 "tab:purple"), strict=False):
            if "steps" not in b:
                continue
            steps = sorted(b["steps"], key=lambda r: r["tables"])
            x = [r["tables"] for r in steps]
            a1.plot(x, [r["latency_s"]["p50"] * 1000 for r in steps], "o-", color=color,
                    label=f"{backend} p50")
            a1.plot(x, [r["latency_s"]["p99"] * 1000 for r in steps], "s--", color=color,
                    label=f"{backend} p99")
            a2.plot(x, [r["actions_per_s"] for r in steps], "o-", color=color,
                    label=f"{backend} achieved")
            a2.plot(x, [r["offered_actions_per_s"] or 0 for r in steps], ":", color="grey")
        a1.axhline(ld["target"]["p99_s"] * 1000, color="red", lw=0.8, label="p99 target")
        a1.set_xlabel("tables (4 clients each)")
        a1.set_ylabel("intent → every seat's update, ms")
        a1.set_yscale("log")
        a1.legend(fontsize=7)
        a2.set_xlabel("tables")
        a2.set_ylabel("actions/s (dotted: offered)")
        a2.legend(fontsize=7)
        fig.suptitle("Server under load")
        fig.tight_layout()
        made.append(_save(fig, folder / f"{prefix}load.png"))
        plt.close(fig)
    b = results.get("bots")
    if b and b["rows"]:
        fig, ax = plt.subplots(figsize=(9, 4))
        rows = b["rows"]
        ax.bar(range(len(rows)), [r["p99_s"]["median"] * 1000 for r in rows], color="tab:grey",
               label="p99")
        ax.bar(range(len(rows)), [r["p50_s"]["median"] * 1000 for r in rows],
               color="tab:blue", label="p50")
        ax.set_xticks(range(len(rows)), [f"{r['game']}\n{r['level']}" for r in rows],
                      rotation=90, fontsize=7)
        ax.set_yscale("log")
        ax.set_ylabel("ms per move")
        ax.legend()
        ax.set_title("Bots: time per move")
        fig.tight_layout()
        made.append(_save(fig, folder / f"{prefix}bots.png"))
        plt.close(fig)
    return made


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=100)
    return path


def write(results: dict[str, Any], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    stem = "quick" if results.get("quick") else "latest"
    prefix = "quick-" if results.get("quick") else ""
    pics = plots(results, folder, prefix)
    js = folder / f"{stem}.json"
    js.write_text(json.dumps(results, indent=1) + "\n")
    md = folder / f"{stem}.md"
    md.write_text(markdown(results, pics))
    return [js, md, *pics]
