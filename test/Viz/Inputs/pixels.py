"""Prints the colour of PNG pixels: pixels.py FILE X,Y [X,Y ...].

Also prints the image's size first. Decodes with matplotlib, independently
of tessera-viz's own encoder.
"""
import sys

import matplotlib.image

image = matplotlib.image.imread(sys.argv[1])
print(f"size {image.shape[1]}x{image.shape[0]}")
for point in sys.argv[2:]:
    x, y = (int(part) for part in point.split(","))
    red, green, blue = (round(float(channel) * 255) for channel in image[y, x][:3])
    print(f"{x},{y}: #{red:02x}{green:02x}{blue:02x}")
