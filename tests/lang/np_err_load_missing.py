# loading a file that does not exist
import numpy as np

data = np.load("no_such_file_kiln_test.npy")
