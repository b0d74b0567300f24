"""One NFC tag, emulated by nfcpy on its `udp` driver, for the tests of the desk reader (test_nfc_reader.py).

    python nfc_tag_emulator.py PORT IDM [NDEF_HEX] [--dump FILE]

nfcpy emulates only NFC Forum Type 3 tags (FeliCa: `nfc.tag.tt3.Type3TagEmulation`), so that is the tag
this process plays: an NDEF tag (system code 12FC) whose identifier (IDm, 8 bytes) stands for the UID an
NTAG sticker would have. It listens on udp:127.0.0.1:PORT (nfcpy's listener side binds that port); the
process under test reads and writes it as `--reader udp:127.0.0.1:PORT`. Taking the tag off the reader
is killing this process. With --dump, the NDEF message is written to FILE (hex) after every write, so a
test can check what landed on the tag without a second reader.
"""

import struct
import sys

import nfc
import nfc.clf

BLOCKS = 16  # user blocks of 16 bytes: 256 bytes of NDEF, about an NTAG215's
PMM = "FFFFFFFFFFFFFFFF"  # an IC code nfcpy maps to no FeliCa product: the generic Type 3 tag


def attribute_block(length):
    """The Type 3 tag's attribute information block: version 1.0, 4 blocks a read, 1 a write, RW."""
    head = struct.pack(">BBBHxxxxBB", 0x10, 4, 1, BLOCKS, 0, 1) + struct.pack(">I", length)[1:]
    return head + struct.pack(">H", sum(head))


class Memory:
    def __init__(self, ndef_octets, dump):
        self.data = bytearray(16 * (BLOCKS + 1))
        self.data[16:16 + len(ndef_octets)] = ndef_octets
        self.data[0:16] = attribute_block(len(ndef_octets))
        self.dump = dump

    def read(self, block, rb, re):
        if block > BLOCKS:
            return None
        return self.data[block * 16:(block + 1) * 16]

    def write(self, block, data, wb, we):
        if block > BLOCKS:
            return False
        self.data[block * 16:(block + 1) * 16] = data
        if block == 0 and self.dump:
            length = struct.unpack(">I", b"\x00" + bytes(self.data[11:14]))[0]
            with open(self.dump, "w") as f:
                f.write(bytes(self.data[16:16 + length]).hex())
        return True


def main(argv):
    port, idm = int(argv[0]), argv[1]
    ndef_octets = bytes.fromhex(argv[2]) if len(argv) > 2 and not argv[2].startswith("--") else b""
    dump = argv[argv.index("--dump") + 1] if "--dump" in argv else None
    memory = Memory(ndef_octets, dump)

    def on_startup(target):
        target.sensf_res = bytearray.fromhex("01" + idm + PMM + "12FC")
        target.brty = "212F"
        return target

    def on_connect(tag):
        tag.add_service(0x0009, memory.read, memory.write)  # NDEF read/write
        tag.add_service(0x000B, memory.read, None)  # NDEF read only
        return True

    clf = nfc.ContactlessFrontend("udp:127.0.0.1:%d" % port)
    print("listening", flush=True)
    # nfcpy listens for a reader in windows of `timeout` seconds and drops a reader's command that
    # arrives as one window closes; one long window leaves no such gap.
    options = {"on-startup": on_startup, "on-connect": on_connect, "timeout": 600.0}
    try:
        while True:  # after a reader said RFOFF (it let go of the tag), wait for the next one
            clf.connect(card=options)
    finally:
        clf.close()


if __name__ == "__main__":
    main(sys.argv[1:])
