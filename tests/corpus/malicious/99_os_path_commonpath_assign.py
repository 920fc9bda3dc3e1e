# expect: module-assignment
# Replacing a module function changes what the worker's own srcpath() computes.
import os.path
os.path.commonpath = lambda paths: paths[0]
