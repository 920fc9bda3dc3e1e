# expect: blocked-attribute
# A downloader reached by attribute: scipy.datasets.
import scipy
face = scipy.datasets.face()
