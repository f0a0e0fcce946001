def torch_twin(A):
    return A - A.mean(dim=1, keepdim=True)
