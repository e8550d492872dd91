with payments as (
    select
        order_id,
        sum(amount) as amount,
        count(*) as payment_count,
        sum(case when payment_method = 'voucher' then amount else 0 end) as voucher_amount
    from {{ ref('stg_payments') }}
    group by order_id
)

select
    o.order_id,
    o.customer_id,
    o.ordered_at,
    o.status,
    coalesce(p.amount, 0) as amount,
    coalesce(p.payment_count, 0) as payment_count,
    coalesce(p.voucher_amount, 0) as voucher_amount
from {{ ref('stg_orders') }} as o
left join payments as p on o.order_id = p.order_id
