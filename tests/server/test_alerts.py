"""deploy/prometheus/tiergarten-alerts.yml and deploy/grafana/tiergarten.json: the rules parse
(and pass `promtool check rules` where Debian's prometheus package is installed), and both name
only metrics the server exports (`metrics.exported()`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tiergarten.server.edge import metrics

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
RULES = DEPLOY / "prometheus" / "tiergarten-alerts.yml"
DASHBOARD = DEPLOY / "grafana" / "tiergarten.json"
# PromQL's own words, and `up`: the series Prometheus itself writes for every scrape target
KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
            "group_left", "group_right", "inf", "nan"}
PROMETHEUS_OWN = {"up"}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads.

    >>> sorted(metric_names('sum by (instance) (rate(a_total{job="x", b=~"5.."}[5m])) '
    ...                     '/ on(instance) b_bytes > 2e9'))
    ['a_total', 'b_bytes']
    """
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    names = re.findall(r"(?<![\w:.$])([A-Za-z_:][\w:]*)\b(?!\s*\()", text)
    return {n for n in names if n.lower() not in KEYWORDS}


def rules() -> list[dict[str, object]]:
    data = yaml.safe_load(RULES.read_text())
    return [rule for group in data["groups"] for rule in group["rules"]]


def test_the_alert_rules_parse_and_name_only_exported_metrics() -> None:
    exported = metrics.exported() | PROMETHEUS_OWN
    found = rules()
    assert len(found) >= 10
    for rule in found:
        assert isinstance(rule["alert"], str) and rule["alert"].startswith("Tiergarten")
        labels, notes = rule["labels"], rule["annotations"]
        assert isinstance(labels, dict) and labels["severity"] in ("critical", "warning", "info")
        assert isinstance(notes, dict) and notes["summary"]
        names = metric_names(str(rule["expr"]))
        assert names and names <= exported, (rule["alert"], names - exported)
    named = set().union(*(metric_names(str(r["expr"])) for r in found))
    for needed in ("tiergarten_server_errors_total", "tiergarten_http_requests_total",
                   "tiergarten_database_up", "tiergarten_redis_up",
                   "tiergarten_adoptions_total"):
        assert needed in named, needed


def test_promtool_accepts_the_rules() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed (apt-get install prometheus); the rules were "
                    "parsed above")
    done = subprocess.run([promtool, "check", "rules", str(RULES)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_dashboard_names_only_exported_metrics() -> None:
    exported = metrics.exported()
    board = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in board["panels"] for t in p.get("targets", [])]
    exprs += [v["query"]["query"].removeprefix("label_values(").rsplit(",", 1)[0]
              for v in board["templating"]["list"] if v["type"] == "query"]
    assert len(exprs) >= 15
    shown = set()
    for expr in exprs:
        names = metric_names(expr)
        assert names and names <= exported, (expr, names - exported)
        shown |= names
    # every metric of the server's own is on the dashboard
    own = {n for n in exported if n.startswith("tiergarten_") and not n.endswith("_created")
           and not n.endswith(("_sum", "_count"))}
    missing = {n for n in own - shown if not (n.endswith("_bucket")
                                               and n.replace("_bucket", "_count") in shown)}
    assert not missing, missing
