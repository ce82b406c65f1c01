"""A release is one version everywhere it is written, and the newest in CHANGELOG.md.

The version is written once, in service/__init__.py; pyproject.toml reads it, and
scripts/container-test.sh passes it to the image's build as VERSION. The other places a user
reads it (the contract, GET /v1/rules, the Dockerfile's default, the manifests, the docs) are
written by hand when a release is cut, so this test reads them all.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml
from flask.testing import FlaskClient

import service

ROOT = Path(__file__).resolve().parents[1]
SEMVER = re.compile(r"\d+\.\d+\.\d+")
# "## [2.1.0] - 2026-11-27": a released version and its date, as Keep a Changelog writes them.
RELEASE = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def written(path: str, pattern: str) -> set[str]:
    """Each version ``pattern`` (with one group) finds in ``path``; at least one."""
    found = set(re.findall(pattern, read(path)))
    assert found, f"{path}: no version matching {pattern!r}"
    return found


def test_every_place_the_version_is_written_agrees_with_the_changelog(
    client: FlaskClient,
) -> None:
    version = service.__version__
    assert SEMVER.fullmatch(version)

    changelog = read("CHANGELOG.md")
    assert changelog.count("\n## [Unreleased]\n") == 1
    releases = RELEASE.findall(changelog)
    assert changelog.index("## [Unreleased]") < changelog.index(f"## [{version}] - ")
    numbers = [tuple(int(n) for n in release[:3]) for release in releases]
    dates = [release[3] for release in releases]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    assert dates == sorted(dates, reverse=True)
    assert ".".join(map(str, numbers[0])) == version  # the newest release is this code's

    with (ROOT / "pyproject.toml").open("rb") as stream:
        setuptools = tomllib.load(stream)["tool"]["setuptools"]
    assert setuptools["dynamic"]["version"] == {"attr": "service.__version__"}

    spec = yaml.safe_load(read("openapi.yaml"))
    examples = spec["components"]["examples"]
    assert spec["info"]["version"] == version
    assert spec["components"]["schemas"]["RulesCatalogue"]["properties"]["service_version"][
        "examples"
    ] == [version]
    assert examples["RulesCatalogue"]["value"]["service_version"] == version
    assert examples["OpenapiDocument"]["value"]["info"]["version"] == version
    assert client.get("/v1/rules").get_json()["service_version"] == version

    assert written("Dockerfile", r"ARG VERSION=(\S+)") == {version}
    script = read("scripts/container-test.sh")
    assert 'open("service/__init__.py")' in script and '--build-arg VERSION="$version"' in script
    assert written("Dockerfile", r"zj-service:(\S+)") == {version}
    assert written("deploy/kubernetes.yaml", r'app\.kubernetes\.io/version: "(\S+)"') == {version}
    assert written("deploy/kubernetes.yaml", r"image: zj-service:(\S+)") == {version}
    assert written("README.md", r"zj-service:(\d[\w.]*)") == {version}
    assert written("docs/EXAMPLES.md", r'"service_version":"([^"]+)"') == {version}
    assert written("docs/CLI.md", r"(?m)^zj-score (\S+)$") == {version}


def test_the_performance_page_says_where_the_service_stands_in_300_lines() -> None:
    assert len(read("docs/PERFORMANCE.md").splitlines()) <= 300
