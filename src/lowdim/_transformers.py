"""Import the optional extra ``crossencoder`` (torch and transformers) with errors that say why.

transformers imports torchvision whenever it is installed (its image utilities sit on the path
that loads BERT), so a torchvision built for another torch release, left by an earlier install
such as pymde's, breaks every model load with "Could not import module 'BertModel'". The real
cause ("operator torchvision::nms does not exist") is only in the chained traceback; here it is
named, with the fix.
"""
import importlib
import importlib.util


def import_transformers(feature):
    """Return the modules ``(torch, transformers)``, or raise an ImportError naming the cause.

    Parameters
    ----------
    feature : str
        What needs them, for the message, e.g. ``"CrossEncoderOracle"``.

    Examples
    --------
    >>> torch, transformers = import_transformers("an example")
    >>> hasattr(transformers, "AutoModel")
    True
    """
    try:
        torch = importlib.import_module("torch")
        transformers = importlib.import_module("transformers")
    except ImportError as err:
        raise ImportError(f"{feature} needs the optional extra 'crossencoder': "
                          "pip install 'lowdim[crossencoder]'") from err
    _check_torchvision(torch)
    return torch, transformers


def _check_torchvision(torch):
    if importlib.util.find_spec("torchvision") is None:
        return
    try:
        importlib.import_module("torchvision")
    except Exception as err:  # a mismatched build fails with RuntimeError, not ImportError
        raise ImportError(
            f"torchvision is installed but does not import beside torch {torch.__version__} "
            f"({type(err).__name__}: {err}); transformers imports it to load any model. "
            "Uninstall it (pip uninstall torchvision) or install the torchvision release "
            "built for this torch") from err
