"""2D grid coordinates for SdkLayout scripts: `IntVector` and
`IntRectangle` (upper-left inclusive, lower-right exclusive)."""


class IntVector:
    def __init__(self, x, y):
        self.x = int(x)
        self.y = int(y)

    def __eq__(self, other):
        return (isinstance(other, IntVector) and self.x == other.x
                and self.y == other.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __add__(self, other):
        return IntVector(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return IntVector(self.x - other.x, self.y - other.y)

    def __repr__(self):
        return f"IntVector({self.x}, {self.y})"


class IntRectangle:
    def __init__(self, ul, lr):
        if not isinstance(ul, IntVector) or not isinstance(lr, IntVector):
            raise TypeError("IntRectangle: expected two IntVectors")
        self.ul = ul
        self.lr = lr

    @property
    def width(self):
        return self.lr.x - self.ul.x

    @property
    def height(self):
        return self.lr.y - self.ul.y

    def __repr__(self):
        return f"IntRectangle({self.ul!r}, {self.lr!r})"
