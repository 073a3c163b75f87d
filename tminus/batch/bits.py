"""Sets of cells as bit masks over a batch: ``(batch, words)`` arrays of uint64, bit ``c``
of the mask for cell ``c`` (word ``c // 64``, bit ``c % 64``)."""

from __future__ import annotations

import numpy as np

WORD = 64
_BYTE_COUNTS = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


def words_for(cells: int) -> int:
    return (cells + WORD - 1) // WORD


def popcount(masks: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (same shape, int64)."""
    if hasattr(np, "bitwise_count"):  # NumPy 2
        return np.bitwise_count(masks).astype(np.int64)
    counts = _BYTE_COUNTS[masks[..., None].view(np.uint8)]
    return counts.sum(axis=-1, dtype=np.int64).reshape(masks.shape)


def select_bit(word: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The position of the ``rank``-th set bit (0 first) of each uint64 ``word``."""
    position = np.zeros(word.shape, dtype=np.int64)
    rank = rank.astype(np.int64)
    for width in (32, 16, 8, 4, 2, 1):
        low = (word >> position.astype(np.uint64)) & np.uint64((1 << width) - 1)
        count = popcount(low)
        beyond = rank >= count
        rank = rank - np.where(beyond, count, 0)
        position += np.where(beyond, width, 0)
    return position


def select_in_masks(masks: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The index (word * 64 + bit) of the ``rank``-th set bit of each row of ``masks``
    (rows of uint64 words, read as one long mask)."""
    if masks.shape[1] == 1:
        return select_bit(masks[:, 0], rank)
    counts = popcount(masks)
    before = np.cumsum(counts, axis=1) - counts
    word = (before <= rank[:, None]).sum(axis=1) - 1
    rows = np.arange(len(word))
    within = rank - before[rows, word]
    return word * WORD + select_bit(masks[rows, word], within)


def unpack(masks: np.ndarray, cells: int) -> np.ndarray:
    """(..., words) uint64 -> (..., cells) bool, cell ``c`` at index ``c`` (little-endian
    machines: bytes of a word from its lowest bits up)."""
    as_bytes = np.ascontiguousarray(masks).view(np.uint8)
    bits = np.unpackbits(as_bytes, axis=-1, bitorder="little")
    return bits[..., :cells].astype(bool)


def cell_table(cells: int, masks: list[int]) -> np.ndarray:
    """Python int masks -> (len, words) uint64, plus a last all-zero row (for ``OUT``)."""
    words = words_for(cells)
    table = np.zeros((len(masks) + 1, words), dtype=np.uint64)
    for i, mask in enumerate(masks):
        for w in range(words):
            table[i, w] = (mask >> (WORD * w)) & ((1 << WORD) - 1)
    return table
