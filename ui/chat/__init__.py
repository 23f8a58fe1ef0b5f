"""The research chat: a Gradio app over the serving process's core."""
