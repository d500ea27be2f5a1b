"""The sliding window of a token splitter, said once for the calculators that chunk a corpus.

A splitter that cuts a text of T tokens into chunks of S tokens, neighbours sharing O (0 ≤ O < S), starts a
chunk every S - O tokens until a chunk reaches the end of the text: LangChain's `split_text_on_tokens`
(langchain_text_splitters/base.py) walks exactly this window, and LlamaIndex's TokenTextSplitter does when each
split is one token. It makes

    n = 0 when T = 0, 1 when T ≤ S, and ⌈(T - O) / (S - O)⌉ otherwise

chunks, the last one T - (n - 1)(S - O) tokens long (the short tail), and sends T + (n - 1) O tokens to the
embedding model: every overlap is embedded again.
"""

from __future__ import annotations

import math

__all__ = ["chunks", "last_chunk_tokens", "tokens_embedded"]


def chunks(tokens: float, size: float, overlap: float) -> int:
    """Return the chunks a sliding window of `size` tokens, `overlap` shared, makes of `tokens`.

    >>> chunks(10000, 1000, 200), chunks(1000, 1000, 100), chunks(1001, 1000, 100), chunks(0, 512, 50)
    (13, 1, 2, 0)
    >>> chunks(5000, 512, 50), chunks(12000, 800, 0)
    (11, 15)
    """
    if tokens <= 0:
        return 0
    if tokens <= size:
        return 1
    return math.ceil((tokens - overlap) / (size - overlap))


def tokens_embedded(tokens: float, size: float, overlap: float) -> float:
    """Return the tokens the chunks hold together: the text once, and every overlap once more.

    10,000 tokens in chunks of 1,000 that overlap by 200 make 13 chunks and 12,400 tokens:

    >>> tokens_embedded(10000, 1000, 200), tokens_embedded(800, 1000, 200), tokens_embedded(0, 1000, 200)
    (12400, 800, 0)
    """
    return tokens + max(chunks(tokens, size, overlap) - 1, 0) * overlap


def last_chunk_tokens(tokens: float, size: float, overlap: float) -> float:
    """Return the length of the last chunk, which holds what is left after the last full step.

    >>> last_chunk_tokens(10000, 1000, 200), last_chunk_tokens(1001, 1000, 100), last_chunk_tokens(0, 1000, 200)
    (400, 101, 0)
    """
    count = chunks(tokens, size, overlap)
    return tokens - (count - 1) * (size - overlap) if count else 0
