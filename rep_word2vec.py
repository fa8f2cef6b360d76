FILE = 'src/lowdim/data/replicas/word2vec.py'
EXAMPLES = {}
