"""ti.Layout.AOS / SOA for compound fields."""


class _L:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "Layout." + self.name


class Layout:
    AOS = _L("AOS")
    SOA = _L("SOA")
