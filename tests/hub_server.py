"""A Hugging Face Hub on loopback: the Hub's paths, headers, redirects and ranges, for repositories on disk.

The real Hub cannot be reached from the tests, so this serves its protocol as huggingface_hub expects it (its
client is run against this server in the tests, as proof): `/api/models/{repo}`; `/{repo}/resolve/{revision}/{file}`
answering a small file itself (200, X-Repo-Commit, ETag) and a safetensors file with a 302 to the storage that holds
it (X-Linked-Size, X-Linked-Etag), whose bytes honour Range (206, Content-Range); a renamed repository with a 307 to
its new name; a missing one with 401 and X-Error-Code RepoNotFound; a gated one with 401 and GatedRepo; a missing
file with 404 and EntryNotFound; an unknown revision with 404 and RevisionNotFound; and, when asked, 429 with
Retry-After and an IETF RateLimit header. Every answer allows any origin, as the Hub does for the browser.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

__all__ = ["BARE", "GEMMA", "GPT2", "LLAMA", "Hub", "save_tiny_checkpoints", "serve_hub"]

LLAMA, GPT2, GEMMA, BARE = "tiny/llama-sharded", "tiny/gpt2", "tiny/gemma3-vision", "tiny/config-only"
"""The repositories `save_tiny_checkpoints` writes: sharded with its index, one file, multimodal, config only."""

_RESOLVE = re.compile(r"/(?P<repo>[^/]+/[^/]+)/resolve/(?P<revision>[^/]+)/(?P<file>.+)")
_API = re.compile(r"/api/models/(?P<repo>[^/]+/[^/]+)")
_STORAGE = re.compile(r"/storage/(?P<digest>[0-9a-f]{64})")


@dataclass
class Hub:
    """The repositories served (id → folder) and how the Hub behaves toward them."""

    repos: Mapping[str, Path]
    gated: frozenset[str] = frozenset()
    renamed: Mapping[str, str] = field(default_factory=dict)
    """Old id → new id: the Hub redirects the old one."""
    rate_limited: bool = False
    requests: list[tuple[str, str, str]] = field(default_factory=list)
    """(method, path, Range header) of every request, in order."""
    url: str = ""

    def commit(self, repo: str) -> str:
        """The repository's commit: a hash of its name, stable from run to run."""
        return hashlib.sha1(repo.encode()).hexdigest()


class _Handler(BaseHTTPRequestHandler):
    hub: Hub
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the tests read `Hub.requests` instead."""

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_OPTIONS(self) -> None:
        self._send(204, b"", {"Access-Control-Allow-Headers": "Range, Content-Type"}, body=False)

    def _answer(self, *, body: bool) -> None:
        hub = self.hub
        path = self.path.split("?", 1)[0]
        hub.requests.append((self.command, path, self.headers.get("Range", "")))
        if hub.rate_limited:
            limit = {
                "Retry-After": "42",
                "RateLimit": '"api";r=0;t=42',
                "RateLimit-Policy": '"fixed window";"api";q=500;w=300',
            }
            self._error(429, "", "Rate limit reached", limit, body)
        elif found := _STORAGE.fullmatch(path):
            self._storage(found["digest"], body)
        elif found := _API.fullmatch(path):
            self._model_info(found["repo"], body)
        elif found := _RESOLVE.fullmatch(path):
            self._resolve(found["repo"], found["revision"], found["file"], body)
        else:
            self._error(404, "", "Not found", {}, body)

    def _model_info(self, repo: str, body: bool) -> None:
        folder = self.hub.repos.get(repo)
        if folder is None:
            self._error(401, "RepoNotFound", "Repository not found", {}, body)
            return
        siblings = [{"rfilename": p.relative_to(folder).as_posix()} for p in sorted(folder.rglob("*")) if p.is_file()]
        info = {"id": repo, "sha": self.hub.commit(repo), "gated": "manual" if repo in self.hub.gated else False}
        self._json({**info, "private": False, "siblings": siblings}, body)

    def _resolve(self, repo: str, revision: str, name: str, body: bool) -> None:
        hub = self.hub
        if repo in hub.renamed:
            self._send(307, b"", {"Location": self.path.replace(f"/{repo}/", f"/{hub.renamed[repo]}/", 1)}, body=body)
            return
        folder = hub.repos.get(repo)
        if folder is None:
            self._error(401, "RepoNotFound", "Repository not found", {}, body)
        elif repo in hub.gated:
            message = f"Access to model {repo} is restricted. You must have access to it and be authenticated."
            self._error(401, "GatedRepo", message, {}, body)
        elif revision not in ("main", hub.commit(repo)):
            self._error(404, "RevisionNotFound", "Invalid rev id", {}, body)
        elif not (folder / name).is_file() or ".." in name:
            self._error(404, "EntryNotFound", "Entry not found", {}, body)
        elif name.endswith(".safetensors"):
            data = (folder / name).read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            headers = {
                "Location": f"{hub.url}/storage/{digest}",
                "X-Linked-Size": str(len(data)),
                "X-Linked-Etag": f'"{digest}"',
                "X-Repo-Commit": hub.commit(repo),
                "ETag": f'"{hashlib.sha1(data).hexdigest()}"',
            }
            self._send(302, b"", headers, body=body)
        else:
            data = (folder / name).read_bytes()
            headers = {"X-Repo-Commit": hub.commit(repo), "ETag": f'"{hashlib.sha1(data).hexdigest()}"'}
            self._send(200, data, {**headers, "Content-Type": "text/plain; charset=utf-8"}, body=body)

    def _storage(self, digest: str, body: bool) -> None:
        data = next(
            (p.read_bytes() for folder in self.hub.repos.values() for p in folder.rglob("*.safetensors")
             if hashlib.sha256(p.read_bytes()).hexdigest() == digest),
            None,
        )  # fmt: skip
        if data is None:
            self._error(404, "", "Not found", {}, body)
            return
        wanted = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if wanted is None:
            self._send(200, data, {"Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"}, body=body)
            return
        start = int(wanted[1])
        end = min(int(wanted[2]) if wanted[2] else len(data) - 1, len(data) - 1)
        if start >= len(data):
            self._send(416, b"", {"Content-Range": f"bytes */{len(data)}"}, body=body)
            return
        headers = {"Content-Range": f"bytes {start}-{end}/{len(data)}", "Accept-Ranges": "bytes"}
        self._send(206, data[start : end + 1], {**headers, "Content-Type": "application/octet-stream"}, body=body)

    def _json(self, document: object, body: bool) -> None:
        self._send(200, json.dumps(document).encode(), {"Content-Type": "application/json"}, body=body)

    def _error(self, status: int, code: str, message: str, headers: Mapping[str, str], body: bool) -> None:
        extra = {"X-Error-Code": code} if code else {}
        document = json.dumps({"error": message}).encode()
        self._send(status, document, {**headers, **extra, "X-Error-Message": message}, body=body)

    def _send(self, status: int, data: bytes, headers: Mapping[str, str], *, body: bool) -> None:
        self.send_response(status)
        exposed = (
            "X-Repo-Commit, X-Linked-Size, X-Linked-Etag, X-Error-Code, X-Error-Message, Content-Range, Retry-After"
        )
        for name, value in {
            **headers,
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Expose-Headers": exposed,
            "Content-Length": str(len(data)),
        }.items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(data)


@contextmanager
def serve_hub(hub: Hub) -> Iterator[Hub]:
    """Serve `hub` on a free loopback port for the `with` block; `hub.url` is its address."""
    handler = type("Handler", (_Handler,), {"hub": hub})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()


def save_tiny_checkpoints(root: Path) -> dict[str, tuple[Path, int]]:
    """Save tiny real checkpoints as transformers saves them for the Hub, by repository id, each with the number
    of parameters transformers counts in it (0 for the repository with a config.json only)."""
    import torch
    from transformers import AutoModelForCausalLM, Gemma3Config, Gemma3ForConditionalGeneration, GPT2Config, LlamaConfig

    torch.manual_seed(0)
    small = {"hidden_size": 64, "intermediate_size": 128, "num_attention_heads": 4, "num_key_value_heads": 2}
    llama = AutoModelForCausalLM.from_config(LlamaConfig(**small, num_hidden_layers=2, vocab_size=1000))
    gpt2 = AutoModelForCausalLM.from_config(
        GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=1000, n_positions=128)
    )
    vision = {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1, "num_attention_heads": 2}
    gemma = Gemma3ForConditionalGeneration(
        Gemma3Config(
            text_config={**small, "num_hidden_layers": 2, "vocab_size": 1000, "head_dim": 16},
            vision_config={**vision, "image_size": 32, "patch_size": 8},
            mm_tokens_per_image=4,
        )
    )
    saved = {}
    for repo, model, options in (
        (LLAMA, llama.to(torch.bfloat16), {"max_shard_size": "100KB"}),
        (GPT2, gpt2, {}),
        (GEMMA, gemma.to(torch.bfloat16), {}),
    ):
        folder = root / repo.replace("/", "--")
        model.save_pretrained(folder, **options)
        saved[repo] = (folder, int(model.num_parameters()))
    bare = root / BARE.replace("/", "--")
    bare.mkdir(parents=True)
    llama.config.to_json_file(bare / "config.json")
    return {**saved, BARE: (bare, 0)}
