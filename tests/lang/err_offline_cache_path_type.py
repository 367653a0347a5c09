# ti.init(offline_cache_file_path=...) takes a directory's path as a str.
import taichi as ti

ti.init(offline_cache_file_path=3)
