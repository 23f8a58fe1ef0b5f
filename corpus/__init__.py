"""The corpus layer: loading documents into blocks, chunking, embedding and the hybrid index."""
