"""ITCH 5.0 messages as itchfeed decodes them, for ThirdPartyDecodersIT.

Reads one message per line, in hex. Writes one line per message, tab-separated: the message in hex, then its type
and each field itchfeed reads as name=value (an integer in decimal; an Alpha field as x and its bytes in hex), or
ERROR and why itchfeed refuses it: a type it does not know, or a length other than its layout's (each layout is a
struct format that must take the whole message).
"""
import sys

from itch.messages import messages as layouts


def fields(message):
    return ["%s=%s" % (name, "x" + value.hex() if isinstance(value, bytes) else value)
            for name, value in sorted(vars(message).items())]


for line in sys.stdin:
    encoded = line.strip()
    if not encoded:
        continue
    raw = bytes.fromhex(encoded)
    layout = layouts.get(raw[:1])
    if layout is None:
        print(encoded, "ERROR", "unknown message type %r" % raw[:1], sep="\t")
    elif len(raw) != layout.message_size:
        print(encoded, "ERROR", "%s of %d bytes, not %d" % (layout.__name__, len(raw), layout.message_size), sep="\t")
    else:
        print(encoded, raw[:1].decode("ascii"), *fields(layout(raw)), sep="\t")
