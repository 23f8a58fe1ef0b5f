"""The REST API: the core's operations over HTTP, and who may call them."""
