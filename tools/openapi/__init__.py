"""OpenAPI tools: load and dereference specs, match concrete calls to templates, call HTTP APIs,
and validate responses against the spec."""

from restgraph.tools.openapi.client import HttpResult, HttpTool
from restgraph.tools.openapi.env import OpenAPIEnvironment
from restgraph.tools.openapi.matching import match_endpoint, to_template
from restgraph.tools.openapi.spec import Operation, dereference, load_spec_file, operations

__all__ = [
    "HttpResult",
    "HttpTool",
    "OpenAPIEnvironment",
    "Operation",
    "dereference",
    "load_spec_file",
    "match_endpoint",
    "operations",
    "to_template",
]
