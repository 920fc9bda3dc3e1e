//! `blocked-attribute` — an attribute name that leads to a dangerous module or to the
//! interpreter's internals.
//!
//! ## What it does
//! Rejects, after any dot, as an imported name and as a match class keyword, the names in
//! `allowlist.toml`'s `blocked_attribute` table: module escape hatches that hang off
//! library modules (`pd.io.common.os.remove`, `matplotlib.animation.subprocess`,
//! `np.ctypeslib.ctypes`, `arr.ctypes`, `np.testing`) and frame/code internals (`gi_frame`,
//! `tb_frame`, `f_back`, `f_globals`, `co_code`, `codeobj`, `mro`; a `co_` keyword name
//! too, `code.replace(co_names=...)`), and PIL's program starters
//! (`ImageShow`, `ImageGrab`, `EpsImagePlugin`, `load_djpeg`) and string evaluator
//! (`ImageMath`), matplotlib's backend registry and module loaders (`backend_registry`,
//! `load_backend_module`, `switch_backend`, `import_module`, `load_module`) and C functions
//! that change the system (`clock_settime`). The last part of every blocked submodule is
//! refused the same way, whatever the receiver (`sns.external`, `m.external` after
//! `m = sns`, `pd.util`, `scipy.datasets`): none of them is a name legitimate plotting code
//! uses after a dot (measured on the corpora and matplotlib's gallery). Legitimate
//! submodules of allowed libraries (`scipy.signal`, `scipy.io`, `numpy.random`,
//! `pandas.io`) are not blocked. `open` is, except as `PIL.Image.open` (the policy's
//! `module_attribute` table; Layer 2 confines what it reads).
//!
//! ## Why is this bad?
//! Checking bare names alone lets `pd.io.common.os.remove(...)` walk straight past; a blocked
//! submodule is as dangerous reached as an attribute as imported (seaborn's vendored helpers
//! import any module by name), and the backend registry imports a module from a name built
//! at run time.
//!
//! ## Instead
//! use the numerics and plotting APIs; files go through srcpath('file'), output through
//! plt.savefig(OUT)

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::BlockedAttribute,
    instead: "use the numerics and plotting APIs; files go through srcpath('file'), output through plt.savefig(OUT)",
};

pub fn check(cx: &mut Checker, name: &str, offset: usize) -> Flow {
    let Some(reason) = cx.idx.blocked_attribute(name) else {
        return Flow::Continue;
    };
    cx.report(
        &RULE,
        offset,
        format!("the attribute `{name}` is blocked ({reason})"),
    );
    Flow::Reported
}

/// A keyword argument named like a blocked prefix (`code.replace(co_names=...)`): the
/// keyword sets what the attribute would read (issue 40).
pub fn check_keyword(cx: &mut Checker, name: &str, offset: usize) -> Flow {
    let Some(prefix) = cx
        .idx
        .policy
        .blocked_attribute_prefixes
        .iter()
        .find(|p| name.starts_with(p.prefix.as_str()))
    else {
        return Flow::Continue;
    };
    cx.report(
        &RULE,
        offset,
        format!("the keyword `{name}=` is blocked ({})", prefix.reason),
    );
    Flow::Reported
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "from scipy import signal, io\nimport pandas as pd\nx = np.random.rand(3)\nm = io.loadmat(srcpath('a.mat'))\nf = signal.welch(x)\n",
        );
        assert_accepts("from scipy import stats\nr = stats.f_oneway([1, 2], [3, 4])\n");
        assert_rejects(
            "import pandas as pd\npd.io.common.os.remove('x')\n",
            &[(2, 14, "blocked-attribute")],
        );
        assert_rejects(
            "c = np.ctypeslib.ctypes\n",
            &[(1, 8, "blocked-attribute"), (1, 18, "blocked-attribute")],
        );
        assert_rejects(
            "p = np.zeros(3).ctypes.data\n",
            &[(1, 17, "blocked-attribute")],
        );
        assert_rejects(
            "def g():\n    yield 1\nf = g().gi_frame.f_back.f_globals\n",
            &[
                (3, 9, "blocked-attribute"),
                (3, 18, "blocked-attribute"),
                (3, 25, "blocked-attribute"),
            ],
        );
        assert_rejects("c = (lambda: 0).co_code\n", &[(1, 17, "blocked-attribute")]);
        assert_rejects(
            "import matplotlib.pyplot as p\np.subprocess.run(['ls'])\n",
            &[(2, 3, "blocked-attribute")],
        );
        assert_rejects("t = int.mro()\n", &[(1, 9, "blocked-attribute")]);
        assert_rejects(
            "c = f.replace(co_names=('exec',))\n",
            &[(1, 15, "blocked-attribute")],
        );
        assert_rejects("c = b.codeobj\n", &[(1, 7, "blocked-attribute")]);
    }

    #[test]
    fn pil_without_its_programs() {
        assert_accepts(
            "from PIL import Image, ImageOps, ImageDraw\nim = Image.open(srcpath('a.png'))\na = np.asarray(ImageOps.grayscale(im))\n",
        );
        assert_rejects(
            "from PIL import ImageShow\n",
            &[(1, 17, "blocked-submodule")],
        );
        assert_rejects("import PIL.ImageGrab\n", &[(1, 8, "blocked-submodule")]);
        assert_rejects(
            "import PIL\nPIL.EpsImagePlugin.gs_binary = 'sh'\n",
            &[(2, 5, "blocked-attribute"), (2, 20, "module-assignment")],
        );
        assert_rejects(
            "from PIL import Image\nim = Image.open('a.jpg')\nim.load_djpeg()\n",
            &[(3, 4, "blocked-attribute")],
        );
        assert_rejects(
            "from PIL import Image\nImage.ImageMath.unsafe_eval('1')\n",
            &[(2, 7, "blocked-attribute"), (2, 17, "blocked-attribute")],
        );
        assert_rejects(
            "from PIL import ImageFile\nImageFile.logging.config\n",
            &[(2, 11, "blocked-attribute")],
        );
        assert_rejects(
            "from PIL import Image\nImage.os.remove('x')\nImage.builtins\n",
            &[
                (2, 7, "blocked-attribute"),
                (3, 1, "module-value"),
                (3, 7, "blocked-attribute"),
            ],
        );
    }
}
