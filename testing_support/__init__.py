"""Fakes and generators shared by the test suite and the benchmarks: scripted LLMs faked at the model
boundary (``llm_fakes``), a scripted research run for them (``llm_scripts``), and a generated folder of
hostile input (``hostile_corpus``). Not part of the installed package: tests and benchmarks import it
from the checkout."""
