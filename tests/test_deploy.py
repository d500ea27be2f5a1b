"""The GitHub Pages workflow builds strictly with the Pages URL and deploys with the official actions."""

from __future__ import annotations

from site_builder.build import PROJECT

WORKFLOW = PROJECT / ".github" / "workflows" / "pages.yml"


def test_workflow_builds_strictly_and_deploys_with_the_official_actions() -> None:
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "branches: [main]" in text
    for step in ("actions/setup-python@", "actions/setup-node@", "actions/configure-pages@",
                 "actions/upload-pages-artifact@", "actions/deploy-pages@"):  # fmt: skip
        assert step in text, step
    assert "python -m pip install -r requirements.lock" in text and "npm ci" in text
    assert 'python -m site_builder build --strict --base-url "${{ steps.pages.outputs.base_url }}/"' in text
    assert "path: dist" in text
    assert "pages: write" in text and "id-token: write" in text
