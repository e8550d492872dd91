select
    c.customer_id,
    c.first_name || ' ' || c.last_name as full_name,
    c.email,
    c.country,
    c.signed_up_at,
    coalesce(o.order_count, 0) as order_count,
    o.first_order_at,
    o.last_order_at,
    coalesce(o.lifetime_value, 0) as lifetime_value
from {{ ref('stg_customers') }} as c
left join {{ ref('int_customer_orders') }} as o on c.customer_id = o.customer_id
