def torch_twin(x, A):
    return x @ A
