# expect: blocked-attribute
# 'open' is allowed on PIL.Image only; a name rebound to another module gets nothing.
from PIL import Image
import pandas as pd
Image = pd.io.common.os
Image.open('/etc/passwd', 0)
