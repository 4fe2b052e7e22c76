"""Security headers on every HTTP answer of the server: pages, scripts, the API and its errors.

The browser client (src/tiergarten/web) is static ES modules with no inline script, no inline
event handler and no `style` attribute in its markup (it sets styles through the DOM's style
object, which a policy does not restrict), so the policy allows only the server's own files:

- `default-src 'self'`, scripts and styles from the server only (`script-src 'self'`: no
  inline script, no eval); images also as `data:` URLs (the favicon); the websocket and
  `fetch` to the server only (`connect-src 'self'`);
- `frame-ancestors 'none'` and `X-Frame-Options: DENY`: no page may frame it (clickjacking);
- `X-Content-Type-Options: nosniff`: a file is only what its content type says;
- `Referrer-Policy: no-referrer`: no address (with a table id in it) is passed on to others.

The one exception is the offline engine's Web Worker (`js/offline/worker.js`, docs/web.md
"Offline"): a worker keeps the policy of its own script's answer, and Pyodide compiles
WebAssembly, which `script-src` must allow by `'wasm-unsafe-eval'` (compiling wasm only: still
no `eval`, no inline script). That one answer gets `WORKER_POLICY`; every page keeps `POLICY`.

docs/security.md says what these promise and how it is tested.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'",
    "form-action 'self'", "frame-ancestors 'none'"))

WORKER = "/js/offline/worker.js"
WORKER_POLICY = POLICY.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware: `HEADERS` on every HTTP response (the websocket is left alone)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        worker = str(scope.get("path", "")).endswith(WORKER)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                if worker and b"content-security-policy" not in have:
                    message["headers"] = [*message.get("headers", []),
                                          (b"content-security-policy", WORKER_POLICY.encode())]
                    have.add(b"content-security-policy")
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in HEADERS if h[0] not in have)]
            await send(message)

        await self.app(scope, receive, with_headers)
