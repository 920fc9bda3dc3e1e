# expect: blocked-attribute
# pandas' io helpers hold the tarfile module: an archive written, extracted, linked.
import pandas as pd
tar = pd.io.common.tarfile.TarFile("x.tar", "w")
tar.close()
