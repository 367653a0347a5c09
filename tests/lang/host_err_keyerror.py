table = {"a": 1}
def lookup(k):
    return table[k]
print(lookup("a"))
print(lookup("b"))
