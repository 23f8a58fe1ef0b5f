"""The model as a second reader of its claims: does each claim's cited text state it? One call per answer."""

READ = """Read each claim against the sentences cited for it.

{pairs}

For each claim give its "claim" number and a "verdict": "states" if the sentences say what the claim
says (in the same or in other words), "contradicts" if they say something else about the same thing (another
figure, the opposite, another term or name), "neither" if they do not say it. Judge only from the
sentences, never from what you know."""
