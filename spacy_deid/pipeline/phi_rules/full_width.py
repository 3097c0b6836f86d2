"""Full-width letters and digits read as their ASCII forms, for matching only.

Text pasted from East Asian input methods or some PDF exports writes a name as
"ＱＵＥＮＮＥＬＬ" (U+FF21...). NFKC maps each of these characters to one ASCII
character, so matching on the folded text keeps every offset of the note:
the spans point at the original full-width characters.
"""
import re

# U+FF01..U+FF5E are "!".."~" in full width; U+3000 is the ideographic space.
_FULL_WIDTH = {0xFF01 + i: 0x21 + i for i in range(0x5E)}
_FULL_WIDTH[0x3000] = 0x20
_ANY_FULL_WIDTH = re.compile("[\u3000\uff01-\uff5e]")


def fold_full_width(text: str) -> str:
    """`text` with full-width ASCII characters replaced one for one (same length)."""
    if _ANY_FULL_WIDTH.search(text) is None:
        return text
    return text.translate(_FULL_WIDTH)
