// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IPaymaster} from "@account-abstraction/contracts/interfaces/IPaymaster.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";

interface IEntryPointDeposits {
    function depositTo(address account) external payable;
    function withdrawTo(address payable withdrawAddress, uint256 withdrawAmount) external;
}

interface IBalanceOf {
    function balanceOf(address account) external view returns (uint256);
}

/// @title StablecoinGasPaymaster - the customer pays gas in the stablecoin it pays with (EntryPoint v0.7).
/// @notice Scheme:
///   - paymasterAndData = paymaster (20) | verificationGasLimit (16) | postOpGasLimit (16) | token (20).
///   - validatePaymasterUserOp: the token must have a price, and the account must hold at least the maximum gas
///     cost (`maxCost`, wei) converted to the token. The paymaster's EntryPoint deposit pays the native gas.
///   - The account's own batch approves this paymaster (the first call of `executeBatch`), so a brand-new
///     counterfactual account can pay in one user operation without permit support (USDT has none).
///   - postOp (execution succeeded): charges ceil((actualGasCost + postOpOverheadGas * feePerGas) * price / 1e18)
///     token units from the account to `gasTreasury` with transferFrom; if that fails, postOp reverts, so the
///     EntryPoint rolls the whole batch back (no payment without the gas being paid) and the op reports failure.
///   - postOp (execution reverted): the batch, approval included, was rolled back; nothing is charged and the
///     paymaster absorbs the gas of the failed payment.
///   `price` is token smallest units per 1e18 wei (native price in USD times 10**decimals, stablecoin = 1 USD).
contract StablecoinGasPaymaster is IPaymaster {
    address public immutable entryPoint;
    address public owner;
    address public gasTreasury;
    uint256 public postOpOverheadGas;
    mapping(address => uint256) public tokenPerNative;

    event TokenPriceSet(address indexed token, uint256 tokenPerNative);
    event GasCharged(address indexed account, address indexed token, uint256 actualGasCost, uint256 tokenAmount);
    event GasNotCharged(address indexed account, address indexed token, uint256 actualGasCost, uint256 tokenAmount);

    modifier onlyOwner() {
        require(msg.sender == owner, "StablecoinGasPaymaster: caller is not the owner");
        _;
    }

    modifier onlyEntryPoint() {
        require(msg.sender == entryPoint, "StablecoinGasPaymaster: caller is not the EntryPoint");
        _;
    }

    constructor(address entryPoint_, address owner_, address gasTreasury_, uint256 postOpOverheadGas_) {
        entryPoint = entryPoint_;
        owner = owner_;
        gasTreasury = gasTreasury_;
        postOpOverheadGas = postOpOverheadGas_;
    }

    function validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32, uint256 maxCost)
        external
        onlyEntryPoint
        returns (bytes memory context, uint256 validationData)
    {
        require(userOp.paymasterAndData.length == 72, "StablecoinGasPaymaster: paymasterData must be the token address");
        address token = address(bytes20(userOp.paymasterAndData[52:72]));
        uint256 price = tokenPerNative[token];
        require(price != 0, "StablecoinGasPaymaster: token not accepted for gas");
        uint256 maxTokenCost = toTokenAmount(maxCost, price);
        require(
            IBalanceOf(token).balanceOf(userOp.sender) >= maxTokenCost,
            "StablecoinGasPaymaster: token balance below the maximum gas cost"
        );
        return (abi.encode(userOp.sender, token, price), 0);
    }

    function postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        external
        onlyEntryPoint
    {
        (address account, address token, uint256 price) = abi.decode(context, (address, address, uint256));
        uint256 amount = toTokenAmount(actualGasCost + postOpOverheadGas * actualUserOpFeePerGas, price);
        if (mode != PostOpMode.opSucceeded) {
            emit GasNotCharged(account, token, actualGasCost, amount);
            return;
        }
        // Low-level call: Ethereum USDT's transferFrom returns no data.
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0x23b872dd, account, gasTreasury, amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "StablecoinGasPaymaster: gas charge failed");
        emit GasCharged(account, token, actualGasCost, amount);
    }

    function toTokenAmount(uint256 weiAmount, uint256 price) public pure returns (uint256) {
        return (weiAmount * price + 1e18 - 1) / 1e18;
    }

    function setTokenPrice(address token, uint256 price) external onlyOwner {
        tokenPerNative[token] = price;
        emit TokenPriceSet(token, price);
    }

    function setGasTreasury(address gasTreasury_) external onlyOwner {
        gasTreasury = gasTreasury_;
    }

    function setPostOpOverheadGas(uint256 gas) external onlyOwner {
        postOpOverheadGas = gas;
    }

    function deposit() external payable {
        IEntryPointDeposits(entryPoint).depositTo{value: msg.value}(address(this));
    }

    function withdrawTo(address payable to, uint256 amount) external onlyOwner {
        IEntryPointDeposits(entryPoint).withdrawTo(to, amount);
    }
}
