"""Optional error reporting (Sentry) and tracing (OpenTelemetry): off unless configured.

- `TIERGARTEN_SENTRY_DSN` (`--sentry-dsn`): `start_reporting` sets up sentry-sdk before the
  app is made. Its FastAPI/Starlette integration reports an exception that escapes a request,
  its logging integration every record at ERROR or above (a background task that failed, an
  exception nobody awaited: server/edge/logs.py), with the release (`tiergarten@0.3.0`), the
  environment (`TIERGARTEN_SENTRY_ENVIRONMENT`) and the worker id; no personal data (no
  cookies, no addresses, no request bodies), no performance traces.
- `TIERGARTEN_OTLP_ENDPOINT` (`--otlp-endpoint`): `start_tracing` instruments the app with
  OpenTelemetry's FastAPI instrumentation, exporting spans over OTLP/HTTP in batches to the
  endpoint, as `TIERGARTEN_OTEL_SERVICE_NAME` with the release and the worker id;
  `/healthz`, `/readyz` and `/metrics` are not traced. Log lines carry the `trace_id`.

Both need packages that are not installed by default: `pip install 'tiergarten[ops]'`; one
configured without them stops the server at start (exit 2), saying which to install. Tests
give each an in-memory transport or exporter (tests/server/test_observe.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import tiergarten

from .config import ServerConfig, env_name

if TYPE_CHECKING:
    from fastapi import FastAPI

EXTRA = "pip install 'tiergarten[ops]'"
UNTRACED = "healthz,readyz,metrics"


def _missing(setting: str, package: str) -> ValueError:
    return ValueError(f"{env_name(setting)} is set, but {package} is not installed: {EXTRA}")


def start_reporting(config: ServerConfig, transport: Any = None) -> bool:
    """Report errors to Sentry if a DSN is configured; whether it does. `transport` (a
    sentry_sdk Transport) replaces the network, for tests."""
    if config.sentry_dsn is None:
        return False
    try:
        import sentry_sdk
    except ImportError:
        raise _missing("sentry_dsn", "sentry-sdk") from None
    options: dict[str, Any] = {"dsn": config.sentry_dsn,
                               "release": f"tiergarten@{tiergarten.__version__}",
                               "environment": config.sentry_environment,
                               "server_name": config.worker(),
                               "traces_sample_rate": None, "max_request_body_size": "never"}
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(**options)
    sentry_sdk.set_tag("worker", config.worker())
    return True


def start_tracing(app: FastAPI, config: ServerConfig, exporter: Any = None) -> Any:
    """Trace the app's requests with OpenTelemetry if an OTLP endpoint is configured (or an
    `exporter` is given, for tests): the tracer provider, or None."""
    if config.otlp_endpoint is None and exporter is None:
        return None
    try:
        from opentelemetry.instrumentation.fastapi import FastAPIInstrumentor
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
    except ImportError:
        raise _missing("otlp_endpoint", "the OpenTelemetry SDK and its FastAPI "
                       "instrumentation") from None
    resource = Resource.create({"service.name": config.otel_service_name,
                                "service.version": tiergarten.__version__,
                                "service.instance.id": config.worker()})
    provider = TracerProvider(resource=resource)
    if exporter is not None:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    else:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError:
            raise _missing("otlp_endpoint", "opentelemetry-exporter-otlp-proto-http") from None
        provider.add_span_processor(BatchSpanProcessor(
            OTLPSpanExporter(endpoint=config.otlp_endpoint)))
    FastAPIInstrumentor.instrument_app(app, tracer_provider=provider, excluded_urls=UNTRACED)
    app.state.tracer_provider = provider
    return provider
