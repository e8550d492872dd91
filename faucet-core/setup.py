"""The one compiled part of faucet-core: the HyperLogLog hash of whole arrays
(faucet_core/profile/_coupons.c). It is optional: where no C compiler is found the build
goes on without it and faucet_core.profile.hll_hash hashes with numpy instead, with the same
coupons. Everything else about the package is declared in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "faucet_core.profile._coupons",
            ["faucet_core/profile/_coupons.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
