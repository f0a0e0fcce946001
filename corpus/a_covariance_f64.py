def torch_twin(X, mu):
    Xc = X - mu
    return (Xc.T @ Xc) * (1.0 / (X.shape[0] - 1))
