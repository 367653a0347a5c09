# classes: __init__, methods, inheritance, class attributes, dunders
class Vec:
    dims = 2
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)
    def __rmul__(self, k):
        return self * k
    def __eq__(self, o):
        return isinstance(o, Vec) and self.x == o.x and self.y == o.y
    def __repr__(self):
        return f"Vec({self.x}, {self.y})"
    def __len__(self):
        return 2
    def __getitem__(self, i):
        return (self.x, self.y)[i]
    def norm2(self):
        return self.x ** 2 + self.y ** 2
v = Vec(1, 2) + Vec(3, 4)
print(v, v * 2, 3 * v, v == Vec(4, 6), v != Vec(0, 0), len(v), v[1], list(v), v.norm2(), Vec.dims, v.dims)
class Animal:
    sound = "..."
    def __init__(self, name):
        self.name = name
    def speak(self):
        return f"{self.name} says {self.sound}"
    def __str__(self):
        return "Animal " + self.name
class Dog(Animal):
    sound = "woof"
    def __init__(self, name, tricks=None):
        super().__init__(name)
        self.tricks = tricks or []
    def speak(self):
        return super().speak() + "!"
d = Dog("rex", ["sit"])
print(d.speak(), Animal("cat").speak(), str(d), d.tricks, isinstance(d, Animal), isinstance(d, Dog), isinstance(Animal("a"), Dog))
print(issubclass(Dog, Animal), issubclass(Animal, Dog), type(d).__name__, type(d) is Dog, hasattr(d, "name"), hasattr(d, "nope"))
print(getattr(d, "name"), getattr(d, "missing", 42))
setattr(d, "age", 3)
print(d.age)
class Counter:
    total = 0
    def __init__(self):
        Counter.total += 1
        self.id = Counter.total
for _ in range(3):
    Counter()
print(Counter.total, Counter().id)
class Shape:
    def area(self):
        return 0
    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"
class Circle(Shape):
    def __init__(self, r):
        self.r = r
    def area(self):
        return 3.14159 * self.r ** 2
class Square(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
for s in [Circle(1), Square(2), Shape()]:
    print(s.describe())
class Temp:
    def __init__(self):
        self._c = 0
    @property
    def c(self):
        return self._c
    @c.setter
    def c(self, v):
        self._c = v * 1.0
    @staticmethod
    def unit():
        return "C"
    @classmethod
    def make(cls):
        return cls()
t = Temp.make()
t.c = 5
print(t.c, Temp.unit(), t.unit())
m = d.speak
print(m(), callable(m), callable(d))
class Empty:
    pass
e = Empty()
e.x = 1
print(e.x, isinstance(e, object))
class Stack:
    def __init__(self):
        self.items = []
    def push(self, v):
        self.items.append(v)
        return self
    def __bool__(self):
        return len(self.items) > 0
s = Stack()
print(bool(s), bool(s.push(1).push(2)), s.items, "yes" if s else "no")
class Pt:
    def __init__(self, x): self.x = x
    def __lt__(self, o): return self.x < o.x
    def __repr__(self): return f"Pt({self.x})"
print(sorted([Pt(3), Pt(1), Pt(2)]), max([Pt(3), Pt(5)]), min(Pt(3), Pt(5)))
