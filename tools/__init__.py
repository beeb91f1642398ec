"""What agents act on: OpenAPI tools, sandbox servers, the browser, the synthetic API executor."""
