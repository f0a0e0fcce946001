def torch_twin(A, Bt):
    return A @ Bt.T
