# expect: blocked-attribute
import matplotlib
matplotlib.logging.FileHandler('/tmp/x').emit
