# an uncaught exception three frames deep: kind, location, caret, traceback
def parse(text):
    return int(text)

def load(items):
    return [parse(t) for t in items]

print(load(["1", "2"]))
print(load(["3", "x"]))
